import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CODES } from '../../generator/manifest/index.js';
import { loadManifest } from '../../generator/pipeline.js';

/** One invalid manifest per folder; `expected.json` lists every diagnostic it must produce, in order. */
const ROOT = join('test', 'fixtures', 'invalid');
const slugs = readdirSync(ROOT, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();

interface Expected {
  code: string;
  line: number;
  column: number;
  messageIncludes: string;
  /** For the mistakes that have a specific fix: what the hint must say. */
  hintIncludes?: string;
}

function expected(slug: string): Expected[] {
  return JSON.parse(readFileSync(join(ROOT, slug, 'expected.json'), 'utf8')) as Expected[];
}

describe('invalid manifests', () => {
  it('has at least 25 fixtures', () => {
    expect(slugs.length).toBeGreaterThanOrEqual(25);
  });

  it('every fixture folder has a manifest and a non-empty expected.json (no orphans)', () => {
    for (const slug of slugs) {
      expect(existsSync(join(ROOT, slug, 'mcp.manifest.yaml')), `${slug}/mcp.manifest.yaml`).toBe(true);
      expect(existsSync(join(ROOT, slug, 'expected.json')), `${slug}/expected.json`).toBe(true);
      expect(expected(slug).length, `${slug}/expected.json is empty`).toBeGreaterThan(0);
    }
  });

  it('covers every diagnostic code except MG001 (a missing file needs no fixture)', () => {
    const covered = new Set(slugs.flatMap((s) => expected(s).map((e) => e.code)));
    const missing = Object.keys(CODES).filter((c) => c !== 'MG001' && !covered.has(c));
    expect(missing).toEqual([]);
  });

  it.each(slugs)('%s', async (slug) => {
    const result = await loadManifest(join(ROOT, slug, 'mcp.manifest.yaml'));
    const want = expected(slug);
    const got = result.diagnostics.map((d) => ({ code: d.code, line: d.line, column: d.column, message: d.message, hint: d.hint }));
    expect(got.map((g) => `${g.code}@${g.line}:${g.column}`)).toEqual(want.map((w) => `${w.code}@${w.line}:${w.column}`));
    want.forEach((w, i) => expect(got[i]!.message).toContain(w.messageIncludes));
    want.forEach((w, i) => w.hintIncludes !== undefined && expect(got[i]!.hint).toContain(w.hintIncludes));
    for (const d of result.diagnostics) {
      expect(d.hint, `${d.code} has a hint`).toBeTruthy();
      expect(d.file.startsWith('/'), 'file is relative to the working directory').toBe(false);
    }
    const errors = result.diagnostics.some((d) => d.severity === 'error');
    expect(result.ir === undefined).toBe(errors);
  });
});
