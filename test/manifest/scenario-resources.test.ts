/**
 * The resource a scenario reads is found by the SDK's URI template matcher (manifest/checks/scenarios.ts),
 * and loading the SDK costs more than a one-primitive regeneration: with the incremental cache, the answer
 * for each URI is kept across runs under the URI and every resource's name, URI and template. Analysis with
 * the cache gives what analysis without it gives, and a run after an edit elsewhere matches nothing again.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GenerationCache } from '../../generator/cache.js';
import { analyseManifest } from '../../generator/pipeline.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

/** A shop whose scenario reads one item through the template `template`, and whose tool says `words`. */
function manifest(template: string, words: string): string {
  return `mcpgen: 1
server:
  name: scenario-shop
  version: 1.0.0
tools:
  shop.get:
    description: "Looks up one item. ${words}"
    sideEffect: read
    input: { type: object, properties: { itemId: { type: string, maxLength: 20 } }, additionalProperties: false }
resources:
  guide:
    uri: shop://guide
    description: The guide.
    mimeType: text/plain
  item:
    uriTemplate: ${template}
    params: { itemId: { type: string, pattern: "^I-[0-9]+$" } }
    description: One item.
    mimeType: application/json
scenarios:
  look:
    steps:
      - read: shop://items/I-1
      - read: shop://guide
      - assert: { read: "shop://items/I-2", path: /id, equals: I-2 }
`;
}

/** The run's cache as the last run's file leaves it, counting the URI answers it had to compute. */
function nextRun(cache: GenerationCache): { cache: GenerationCache; computed: { n: number; asked: number; pieces: number } } {
  const next = GenerationCache.parse(cache.serialize(), 'test');
  const computed = { n: 0, asked: 0, pieces: 0 };
  const fragment = next.fragment.bind(next);
  next.fragment = <T>(key: string, compute: () => T): T => {
    const mine = key.startsWith('scenario-resource\0');
    if (mine) computed.asked++;
    return fragment(key, () => (mine && computed.n++, key.startsWith('yaml\0') && computed.pieces++, compute()));
  };
  return { cache: next, computed };
}

const shown = async (file: string, cache?: GenerationCache) => {
  const a = await analyseManifest(file, cache ? { cache } : {});
  return { diagnostics: a.diagnostics.map((d) => ({ ...d })), scenarios: JSON.stringify(a.ir?.scenarios) };
};

describe('the resources scenarios read, with the incremental cache', () => {
  it('are found again without matching after an edit elsewhere, and matched again when a template changes', async () => {
    const root = mkdtempSync(join(tmpdir(), 'mcp-gen-scenario-res-'));
    roots.push(root);
    const file = join(root, 'mcp.manifest.yaml');
    writeFileSync(file, manifest('shop://items/{itemId}', ''));
    let cache = new GenerationCache('test');
    const first = await shown(file, cache);
    expect(first.scenarios).toContain('"resource":"item"');
    expect(first.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);

    // A tool's description changes: the three URIs are answered from the cache.
    let run = nextRun(cache);
    writeFileSync(file, manifest('shop://items/{itemId}', 'Read only.'));
    expect(await shown(file, run.cache)).toEqual(await shown(file));
    // Matched from the resources' summaries: of the manifest's pieces, only the edited tool's is read, and
    // the templated resource's, whose variable schemas check the URIs.
    expect(run.computed).toEqual({ n: 0, asked: 3, pieces: 2 });

    // The template no longer serves the URIs the scenario reads: matched again, and reported as without the cache.
    cache = run.cache;
    run = nextRun(cache);
    writeFileSync(file, manifest('shop://goods/{itemId}', 'Read only.'));
    const moved = await shown(file, run.cache);
    expect(moved).toEqual(await shown(file));
    expect(moved.diagnostics.filter((d) => d.code === 'MG801')).toHaveLength(2);
    expect(run.computed.n).toBe(3);
    expect(run.computed.pieces).toBe(2);
  });
});
