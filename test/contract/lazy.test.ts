/**
 * The contract publishes its schemas when they are first read (contract/lazy.ts). Whatever is read first,
 * and in whatever order, the contract and the graph's shared schemas must be what publishing everything
 * at once gives.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildContract, type Contract } from '../../generator/contract/index.js';
import type { Ir } from '../../generator/ir/types.js';
import { loadManifest } from '../../generator/pipeline.js';
import { goldenFixturesDir, repoRoot } from '../helpers/paths.js';

const MANIFESTS = [
  ...readdirSync(goldenFixturesDir).map((d) => join(goldenFixturesDir, d, 'mcp.manifest.yaml')),
  ...readdirSync(join(repoRoot, 'test/fixtures/valid')).map((d) => join(repoRoot, 'test/fixtures/valid', d, 'mcp.manifest.yaml')),
  ...readdirSync(join(repoRoot, 'manifests')).map((d) => join(repoRoot, 'manifests', d, 'mcp.manifest.yaml')),
];

async function irOf(manifest: string): Promise<Ir> {
  const { ir, diagnostics } = await loadManifest(manifest, { lint: false });
  expect(ir, JSON.stringify(diagnostics.filter((d) => d.severity === 'error'))).toBeDefined();
  return ir!;
}

/** Every published schema of a contract, in reverse order of primitives: the opposite of the eager build. */
function publishedOf(c: Contract): unknown[] {
  const out: unknown[] = [];
  for (const p of [...c.prompts].reverse()) for (const a of [...p.arguments].reverse()) out.push(a.schema);
  for (const r of [...c.resources].reverse()) out.push(r.content.schema, ...Object.values(r.params).reverse(), r.listing);
  for (const t of [...c.tools].reverse()) out.push(t.output, t.listing.outputSchema, t.listing.inputSchema, t.input);
  return out;
}

/** The objects reachable from `value` that `shared` names, with their names. */
function sharedIn(value: unknown, shared: ReadonlyMap<object, string>, into = new Map<object, string>()): Map<object, string> {
  if (value === null || typeof value !== 'object') return into;
  const name = shared.get(value);
  if (name !== undefined) into.set(value, name);
  for (const v of Object.values(value)) sharedIn(v, shared, into);
  return into;
}

describe('the contract publishes its schemas when first read', () => {
  it.each(MANIFESTS)('%s: the same contract, shared schemas first or last', async (manifest) => {
    const ir = await irOf(manifest);
    // Eager: every schema published in primitive order, then the shared schemas asked for.
    const eager = buildContract(ir);
    const eagerJson = JSON.stringify(eager, (k, v) => (k === 'graph' || k === 'ir' ? undefined : v));
    const eagerShared = eager.graph.sharedSchemas();
    const eagerReached = [...sharedIn(publishedOf(eager), eagerShared).values()].sort();
    // Lazy: the shared schemas asked for before anything is published, then published in reverse order.
    const lazy = buildContract(ir);
    const lazyShared = lazy.graph.sharedSchemas();
    const published = publishedOf(lazy);
    const lazyReached = sharedIn(published, lazyShared);
    expect([...lazyReached.values()].sort()).toEqual(eagerReached);
    // Every body the lazy run's emitters will meet is one the map they were handed names.
    expect(sharedIn(published, lazy.graph.sharedSchemas()).size).toBe(lazyReached.size);
    expect(JSON.stringify(lazy, (k, v) => (k === 'graph' || k === 'ir' ? undefined : v))).toBe(eagerJson);
    // A field read twice is the same object.
    for (const t of lazy.tools) expect(t.listing.inputSchema).toBe(t.listing.inputSchema);
  });

  it.each(MANIFESTS)('%s: a plain reference publishes as the shared body of the schema it names', async (manifest) => {
    const ir = await irOf(manifest);
    const graph = buildContract(ir).graph;
    const shared = graph.sharedSchemas();
    for (const [body, name] of shared) {
      const ref = `#/schemas/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      expect(graph.publish({ $ref: ref })).toBe(body);
      // The body inlined into a schema around it is the same object: emitters declare it once and name it.
      const around = graph.publish({ type: 'object', properties: { x: { $ref: ref } } }) as { properties: { x: unknown } };
      expect(around.properties.x).toBe(body);
    }
  });
});
