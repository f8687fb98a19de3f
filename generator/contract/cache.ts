/**
 * Cache hints (2026-07-28 `ttlMs` / `cacheScope`) as the contract publishes them: the server's default
 * policy, each resource's read policy and each listing's. A result that can differ from one caller to the
 * next is `private`, whatever the manifest says: a shared cache must never hand one caller's view to another.
 */
import type { Ir, IrCachePolicy, IrResource } from '../ir/types.js';

/** The hints of one cacheable result, as the wire carries them. */
export interface CacheHint {
  readonly ttlMs: number;
  readonly cacheScope: 'public' | 'private';
}

/** The cacheable list methods and discovery, with their hints. */
export type ListCacheHints = Readonly<Record<'server/discover' | 'tools/list' | 'prompts/list' | 'resources/list' | 'resources/templates/list', CacheHint>>;

/** What the protocol assumes when a server says nothing: stale at once, never shared. */
export const NO_CACHE: CacheHint = { ttlMs: 0, cacheScope: 'private' };

/** Classifications whose content is never cached `public`. */
const PRIVATE_CLASSIFICATIONS: ReadonlySet<string> = new Set(['confidential', 'restricted']);

/** True when `hint` is what the protocol assumes anyway (so generated code and the lock need not say it). */
export function isNoCache(hint: CacheHint): boolean {
  return hint.ttlMs === NO_CACHE.ttlMs && hint.cacheScope === NO_CACHE.cacheScope;
}

/** `server.cache` with the protocol's defaults filled in. */
export function defaultCache(policy: IrCachePolicy | undefined): CacheHint {
  return { ttlMs: policy?.ttlMs ?? NO_CACHE.ttlMs, cacheScope: policy?.scope ?? NO_CACHE.cacheScope };
}

/**
 * A resource's read hints: its own `cache:` over the server default; `private` when a scope or an audience
 * gates the read or its classification is confidential or restricted. (The runtime also sends `private` when the author
 * installed an `authorize` hook, since that hook decides per caller.)
 */
export function readCache(r: IrResource, fallback: CacheHint): CacheHint {
  const ttlMs = r.cache?.ttlMs ?? fallback.ttlMs;
  const declared = r.cache?.scope ?? fallback.cacheScope;
  const perCaller = gated(r) || (r.classification !== undefined && PRIVATE_CLASSIFICATIONS.has(r.classification));
  return { ttlMs, cacheScope: perCaller ? 'private' : declared };
}

/** True when who may read the resource depends on the caller: a scope or an audience. */
function gated(r: Pick<IrResource, 'scopes' | 'audience'>): boolean {
  return r.scopes.length > 0 || r.audience !== undefined;
}

/**
 * The hints of each listing: the server default, `private` when the listing is filtered per caller (an entry
 * gated by a scope or an audience, or template instances a handler lists and the `authorize` hook filters).
 */
export function listCache(ir: Pick<Ir, 'server' | 'tools' | 'prompts' | 'resources'>): ListCacheHints {
  const base = defaultCache(ir.server.cache);
  const hint = (filtered: boolean): CacheHint => (filtered ? { ttlMs: base.ttlMs, cacheScope: 'private' } : base);
  const scoped = (items: readonly { scopes: readonly string[] }[]) => items.some((p) => p.scopes.length > 0);
  const fixed = ir.resources.filter((r) => r.uri !== undefined);
  const templates = ir.resources.filter((r) => r.uriTemplate !== undefined);
  return {
    'server/discover': base,
    'tools/list': hint(scoped(ir.tools)),
    'prompts/list': hint(scoped(ir.prompts)),
    'resources/list': hint(fixed.some(gated) || templates.some((t) => t.list)),
    'resources/templates/list': hint(templates.some(gated)),
  };
}

/**
 * The hints of discovery and of each list method the server's `capabilities` serve (a kind it does not
 * declare answers no list method), as the server publishes them: what the lock records and `server.gen.ts`
 * passes to the SDK.
 */
export function servedListCache(server: { readonly cacheHints: ListCacheHints; readonly capabilities: Readonly<Record<string, unknown>> }): Partial<ListCacheHints> {
  const { cacheHints, capabilities } = server;
  const methods: (keyof ListCacheHints)[] = ['server/discover'];
  if ('tools' in capabilities) methods.push('tools/list');
  if ('prompts' in capabilities) methods.push('prompts/list');
  if ('resources' in capabilities) methods.push('resources/list', 'resources/templates/list');
  return Object.fromEntries(methods.map((m) => [m, { ...cacheHints[m] }]));
}
