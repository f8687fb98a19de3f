import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_CODE, RULES } from '../../generator/lint/index.js';

const DOCS = join('docs', 'rules');
const pages = readdirSync(DOCS).filter((f) => f !== 'README.md').sort();
const codes = [CONFIG_CODE, ...RULES.map((r) => r.code)];

describe('rule documentation', () => {
  it('has one page per rule (and MG700), and a rule for every page', () => {
    expect(pages).toEqual(codes.map((c) => `${c}.md`).sort());
  });

  it.each(RULES.map((r) => [r.code, r] as const))('%s page names the rule, its severity, why, a failing and a passing fragment and how to disable it', (code, rule) => {
    const text = readFileSync(join(DOCS, `${code}.md`), 'utf8');
    expect(text.startsWith(`# ${code} ${rule.name}\n`)).toBe(true);
    expect(text).toContain(`**Default severity:** ${rule.defaultSeverity}`);
    for (const h of ['## What it catches', '## Why', '## Fails', '## Passes', '## Disabling it']) expect(text, h).toContain(h);
    expect(text.match(/```yaml/g)?.length ?? 0).toBeGreaterThanOrEqual(3);
    expect(text).toContain(code);
  });

  it('lists every code in the index with its default severity', () => {
    const index = readFileSync(join(DOCS, 'README.md'), 'utf8');
    for (const r of RULES) expect(index).toContain(`| [\`${r.code}\`](${r.code}.md) | ${r.name} | ${r.defaultSeverity} |`);
    expect(index).toContain(`[\`${CONFIG_CODE}\`](${CONFIG_CODE}.md)`);
  });
});
