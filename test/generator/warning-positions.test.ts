/**
 * A run's warnings are printed after it has stored its cache; a warning's position inside a manifest entry
 * is worked out when first read. The positions of the warnings a run gives are kept in the cache file it
 * stores, so the next run, after an edit of one entry, works out the position of that entry's warning only.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
// The built modules: a cache file is stored only by a build (its version names the build).
import { generate } from '../../dist/pipeline.js';
import { openCache } from '../../dist/write/cache-store.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

it('keeps the positions of the warnings it gives in the cache file, for the next run', { timeout: 120_000 }, async () => {
  const root = mkdtempSync(join(tmpdir(), 'mcp-gen-positions-'));
  roots.push(root);
  writeFileSync(join(root, 'package.json'), '{}');
  // The cache file lives under the project's node_modules.
  mkdirSync(join(root, 'node_modules'));
  const file = join(root, 'mcp.manifest.yaml');
  const outDir = join(root, 'out');
  // Every tool takes a string without a bound: a warning (MG718) inside each entry.
  const text = (edited: string) => `mcpgen: 1\nserver:\n  name: positions\n  version: 1.0.0\ntools:\n${Array.from({ length: 10 }, (_, i) =>
    `  shop.tool_${i}:\n    description: ${i === 4 ? edited : `Looks up item ${i}.`}\n    sideEffect: read\n    input:\n      type: object\n      properties:\n        phrase: { type: string }\n      additionalProperties: false\n`).join('')}`;
  const run = async () => {
    const cache = openCache(root, file, outDir);
    const computed: string[] = [];
    const fragment = cache.fragment.bind(cache);
    cache.fragment = <T>(key: string, compute: () => T): T => fragment(key, () => (key.startsWith('lint-position\0') && computed.push(key), compute()));
    const r = await generate(file, { cwd: root, outDir, cache });
    // What the CLI prints, after the run.
    const printed = r.findings.warnings.filter((d: { code: string }) => d.code === 'MG718').map((d: { line: number; column: number }) => `${d.line}:${d.column}`);
    return { printed, computed: computed.length };
  };
  writeFileSync(file, text('Looks up item 4.'));
  const first = await run();
  expect(first.printed).toHaveLength(10);
  expect(first.computed).toBe(10);
  writeFileSync(file, text('Looks up item 4, by id.'));
  const second = await run();
  expect(second.printed).toEqual(first.printed);
  expect(second.computed).toBe(1);
});
