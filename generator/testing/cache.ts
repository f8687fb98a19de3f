/**
 * The 2026-07-28 cache hints a contract suite expects, restated from the manifest's declared values on
 * their own (not the generator's derivation in contract/cache.ts), and the checks that read them off the
 * wire. A 2025-11-25 result carries no cache field at all.
 */
import { expect } from 'vitest';
import type { Connection } from './index.js';

/** A `cache:` block as the manifest declares it. */
export interface DeclaredCache {
  readonly ttlMs?: number;
  readonly scope?: 'public' | 'private';
}

/** The hints a result should carry on the 2026-07-28 wire. */
export interface ExpectedCache {
  readonly ttlMs: number;
  readonly cacheScope: 'public' | 'private';
}

/**
 * What a read or listing should say: its own policy over the server's, over the protocol's default
 * (0 ms, private); `private` when the result can differ per caller (`perCaller`).
 */
export function expectedCache(own: DeclaredCache | undefined, server: DeclaredCache | undefined, perCaller: boolean): ExpectedCache {
  const ttlMs = own?.ttlMs ?? server?.ttlMs ?? 0;
  const scope = own?.scope ?? server?.scope ?? 'private';
  return { ttlMs, cacheScope: perCaller ? 'private' : scope };
}

/**
 * A read of a resource is per caller when a scope or an audience gates it (callers outside it are told the
 * resource does not exist) or its content is confidential or restricted.
 */
export function readIsPerCaller(scopes: readonly string[], classification?: string, audience?: readonly string[]): boolean {
  return scopes.length > 0 || audience !== undefined || classification === 'confidential' || classification === 'restricted';
}

function hintsOf(result: object): [unknown, unknown] {
  const r = result as Record<string, unknown>;
  return [r['ttlMs'], r['cacheScope']];
}

/** The era the connection speaks: the hints exist on the 2026-07-28 wire only. */
function modern(h: Connection): boolean {
  return (h.client as unknown as { getProtocolEra?: () => string }).getProtocolEra?.() === 'modern';
}

/** Reads `uri` and checks its cache hints (2026) or their absence (2025). */
export async function expectReadCache(h: Connection, uri: string, expected: ExpectedCache): Promise<void> {
  const result = await h.client.readResource({ uri });
  expect(hintsOf(result)).toEqual(modern(h) ? [expected.ttlMs, expected.cacheScope] : [undefined, undefined]);
}

/** Lists tools and checks the listing's cache hints (2026) or their absence (2025). */
export async function expectToolListCache(h: Connection, expected: ExpectedCache): Promise<void> {
  const result = await h.client.listTools();
  expect(hintsOf(result)).toEqual(modern(h) ? [expected.ttlMs, expected.cacheScope] : [undefined, undefined]);
}
