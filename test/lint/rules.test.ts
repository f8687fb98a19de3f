import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_CODE, RULES } from '../../generator/lint/index.js';
import { loadManifest } from '../../generator/pipeline.js';

/**
 * One folder per lint code under test/fixtures/lint: `fail*.yaml` must produce
 * exactly the findings listed in its trailing `# expect: CODE line:col fragment`
 * comments; `pass*.yaml` must produce no finding at all.
 */
const ROOT = join('test', 'fixtures', 'lint');
const codes = readdirSync(ROOT).filter((d) => /^MG\d{3}$/.test(d)).sort();

interface Expected {
  readonly code: string;
  readonly at: string;
  readonly fragment: string;
}

function expectations(file: string): Expected[] {
  return [...readFileSync(file, 'utf8').matchAll(/^# expect: (MG\d{3}) (\d+:\d+) (.+)$/gm)].map((m) => ({ code: m[1]!, at: m[2]!, fragment: m[3]! }));
}

/**
 * MG728 and MG729 report every primitive without `outcome` / `owner`, so most fixtures (written for
 * another rule) carry them; a fixture is checked for them only in their own folders or where it expects them.
 */
const STEWARDSHIP = new Set(['MG728', 'MG729']);
function relevant<D extends { code: string }>(diagnostics: readonly D[], folder: string, want: readonly Expected[] = []): D[] {
  return diagnostics.filter((d) => !STEWARDSHIP.has(d.code) || d.code === folder || want.some((w) => w.code === d.code));
}

const cases = codes.flatMap((code) =>
  readdirSync(join(ROOT, code))
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => ({ code, file: join(ROOT, code, f), fail: f.startsWith('fail') })),
);

describe('lint fixtures', () => {
  it('has a folder for every rule (and MG700), and a rule for every folder', () => {
    expect(codes).toEqual([CONFIG_CODE, ...RULES.map((r) => r.code)].sort());
  });

  it('has at least one failing and one passing fixture per code', () => {
    for (const code of codes) {
      const kinds = cases.filter((c) => c.code === code).map((c) => (c.fail ? 'fail' : 'pass'));
      expect(kinds, code).toContain('fail');
      expect(kinds, code).toContain('pass');
    }
  });

  it.each(cases.filter((c) => c.fail).map((c) => [c.file, c] as const))('%s', async (_name, c) => {
    const want = expectations(c.file);
    expect(want.some((w) => w.code === c.code), `${c.file} expects a ${c.code} finding`).toBe(true);
    const r = await loadManifest(c.file);
    const found = relevant(r.diagnostics, c.code, want);
    expect(found.map((d) => `${d.code}@${d.line}:${d.column}`)).toEqual(want.map((w) => `${w.code}@${w.at}`));
    want.forEach((w, i) => expect(found[i]!.message).toContain(w.fragment));
    for (const d of r.diagnostics) {
      expect(d.hint, `${d.code} has a hint`).toBeTruthy();
      expect(d.sourceLine, `${d.code} has its source line`).toBeDefined();
    }
    expect(r.ir === undefined).toBe(r.diagnostics.some((d) => d.severity === 'error'));
  });

  it.each(cases.filter((c) => !c.fail).map((c) => [c.file, c] as const))('%s', async (_name, c) => {
    const r = await loadManifest(c.file);
    expect(relevant(r.diagnostics, c.code)).toEqual([]);
    expect(r.ir).toBeDefined();
  });
});

describe('rule modules', () => {
  it('have unique MG7xx codes in order, kebab-case names and one-sentence descriptions', () => {
    const list = RULES.map((r) => r.code);
    expect(new Set(list).size).toBe(list.length);
    expect([...list].sort()).toEqual(list);
    for (const r of RULES) {
      expect(r.code).toMatch(/^MG7\d\d$/);
      expect(r.code).not.toBe(CONFIG_CODE);
      expect(r.name).toMatch(/^[a-z]+(-[a-z0-9]+)*$/);
      expect(r.description.length).toBeGreaterThan(20);
      expect(['error', 'warning', 'hint']).toContain(r.defaultSeverity);
    }
  });

  it('live in rules/<code>-<name>.ts', () => {
    const files = readdirSync(join('generator', 'lint', 'rules')).filter((f) => f.startsWith('MG'));
    expect(files.sort()).toEqual(RULES.map((r) => `${r.code}-${r.name}.ts`));
  });
});
