/**
 * The lock: the published contract of every primitive with a hash each, a
 * catalog hash, and the cache hints of discovery and the listings — the
 * evidence of what was published and the baseline that `diff` compares against. `emit/lock.ts` writes it out as `mcp.lock.json`.
 */
import { metadataOf, stewardshipOf } from './base.js';
import { isNoCache, servedListCache } from './cache.js';
import type { Contract, PromptContract, ResourceContract, ToolContract } from './types.js';
import type { Ir } from '../ir/types.js';
import { canonicalJson as runtimeCanonicalJson, sha256Of } from '../runtime/security/hash.js';

/** The protocol revisions a generated server speaks, newest first. */
export const PROTOCOL_VERSIONS = ['2026-07-28', '2025-11-25'] as const;

/** Lock file format version. */
export const LOCK_VERSION = 1;

/** JSON with object keys sorted, so equal contracts hash equally (the runtime's canonical form). */
export const canonicalJson = (value: unknown): string => runtimeCanonicalJson(value);

/** `sha256:<hex>` of the canonical JSON of a value. */
export function hashOf(value: unknown): string {
  return `sha256:${sha256Of(value)}`;
}

/** A tool's lock entry: its listing (the input as declared, without control arguments) and its gates. */
export function toolLockEntry(c: ToolContract): Record<string, unknown> {
  return {
    ...metadataOf(c.listing, 'inputSchema', 'outputSchema'),
    inputSchema: c.input,
    ...(c.output !== undefined ? { outputSchema: c.output } : {}),
    sideEffect: c.sideEffect,
    scopes: [...c.scopes],
    idempotency: c.idempotency,
    approval: c.approval,
    ...(c.timeoutMs !== undefined ? { timeoutMs: c.timeoutMs } : {}),
    ...stewardshipOf(c.ir),
  };
}

/** A resource's lock entry. */
export function resourceLockEntry(c: ResourceContract): Record<string, unknown> {
  return {
    ...metadataOf(c.listing),
    ...(Object.keys(c.params).length > 0 ? { params: c.params } : {}),
    ...(c.content.schema !== undefined ? { schema: c.content.schema } : {}),
    ...(c.sourceHash !== undefined ? { sourceHash: c.sourceHash } : {}),
    scopes: [...c.scopes],
    list: c.list,
    subscribe: c.subscribe,
    complete: [...c.complete],
    ...stewardshipOf(c.ir),
    ...governanceOf(c),
  };
}

/** A prompt's lock entry. */
export function promptLockEntry(c: PromptContract): Record<string, unknown> {
  return {
    ...metadataOf(c.listing, 'arguments'),
    arguments: c.arguments,
    ...(c.messages !== undefined ? { messages: c.messages } : {}),
    scopes: [...c.scopes],
    ...stewardshipOf(c.ir),
  };
}

/** A resource's classification, audience, size budget and cache hints, as its lock entry records them. */
function governanceOf(c: ResourceContract): Record<string, unknown> {
  return {
    ...(c.classification !== undefined ? { classification: c.classification } : {}),
    ...(c.audience !== undefined ? { audience: [...c.audience] } : {}),
    ...(c.maxBytes !== undefined ? { maxBytes: c.maxBytes } : {}),
    // The protocol's own default (stale at once, private) is left out, as an unset field.
    ...(isNoCache(c.cache) ? {} : { cache: { ...c.cache } }),
  };
}

/** A primitive's lock entry: its contract and the hash of it. */
export interface LockEntry {
  readonly hash: string;
  readonly contract: Record<string, unknown>;
}

/** The lock entry of one contract entry, by kind. */
export function lockEntry(c: ToolContract | ResourceContract | PromptContract): LockEntry {
  const contract = c.kind === 'tool' ? toolLockEntry(c) : c.kind === 'resource' ? resourceLockEntry(c) : promptLockEntry(c);
  return { hash: hashOf(contract), contract };
}

/** Items sorted by name (code unit order, as the lock lists them). */
export function byName<T extends { readonly name: string }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function section<T extends ToolContract | ResourceContract | PromptContract>(items: readonly T[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const x of byName(items)) {
    // Defined, not assigned: a primitive named `__proto__` must be an entry, not the object's prototype.
    Object.defineProperty(out, x.name, { value: lockEntry(x), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** The sorted `kind:name:hash` lines whose hash is the lock's `catalogHash`, from each kind's sorted entries. */
export function catalogHashOf(sections: readonly (readonly [kind: string, entries: readonly { readonly name: string; readonly hash: string }[]])[]): string {
  return hashOf(sections.flatMap(([kind, entries]) => entries.map((e) => `${kind}:${e.name}:${e.hash}`)));
}

/** The lock's fields before its three sections of primitives, in the order the lock file has them. */
export function lockHead(ir: Pick<Ir, 'server'>, contract: Pick<Contract, 'server'>, catalogHash: string): Record<string, unknown> {
  return {
    lockVersion: LOCK_VERSION,
    protocolVersion: PROTOCOL_VERSIONS[0],
    protocolVersions: [...PROTOCOL_VERSIONS],
    server: { name: ir.server.name, version: ir.server.version },
    catalogHash,
    // Every method's hints, defaults included, so a lock without this key is one that predates it.
    cacheHints: servedListCache(contract.server),
  };
}

/** Builds the lock object of a server from its contract. */
export function buildLock(ir: Pick<Ir, 'server'>, contract: Pick<Contract, 'server' | 'tools' | 'resources' | 'prompts'>): Record<string, unknown> {
  const tools = section(contract.tools);
  const resources = section(contract.resources);
  const prompts = section(contract.prompts);
  const entries = (s: Record<string, unknown>) => Object.entries(s).map(([name, v]) => ({ name, hash: (v as LockEntry).hash }));
  const catalogHash = catalogHashOf([['tool', entries(tools)], ['resource', entries(resources)], ['prompt', entries(prompts)]]);
  return { ...lockHead(ir, contract, catalogHash), tools, resources, prompts };
}
