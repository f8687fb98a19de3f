/** The cache hints the contract publishes: defaults, a resource's own policy, and what forces `private`. */
import { describe, expect, it } from 'vitest';
import { defaultCache, listCache, readCache } from '../../generator/contract/cache.js';
import type { Ir, IrResource } from '../../generator/ir/types.js';

const resource = (over: Partial<IrResource>): IrResource => ({ kind: 'resource', name: 'r', id: 'r', typeBase: 'R', scopes: [], uri: 'x://r', mimeType: 'text/plain', textual: true, variables: [], params: [], complete: [], list: false, subscribe: false, location: { file: 'm', line: 1, column: 1 }, ...over }) as IrResource;
const ir = (over: Partial<Pick<Ir, 'tools' | 'prompts' | 'resources'>>, cache = { ttlMs: 1000, scope: 'public' as const }) =>
  ({ server: { cache }, tools: [], prompts: [], resources: [], ...over }) as unknown as Pick<Ir, 'server' | 'tools' | 'prompts' | 'resources'>;

describe('cache hints', () => {
  it('default to what the protocol assumes (0 ms, private) when the server declares none', () => {
    expect(defaultCache(undefined)).toEqual({ ttlMs: 0, cacheScope: 'private' });
    expect(defaultCache({ ttlMs: 5 })).toEqual({ ttlMs: 5, cacheScope: 'private' });
  });

  it('a resource policy overrides the server default field by field', () => {
    const base = defaultCache({ ttlMs: 1000, scope: 'public' });
    expect(readCache(resource({}), base)).toEqual({ ttlMs: 1000, cacheScope: 'public' });
    expect(readCache(resource({ cache: { ttlMs: 7 } }), base)).toEqual({ ttlMs: 7, cacheScope: 'public' });
  });

  it('a scoped, confidential or restricted resource is always private', () => {
    const base = defaultCache({ ttlMs: 1000, scope: 'public' });
    expect(readCache(resource({ scopes: ['a'], cache: { scope: 'public' } }), base).cacheScope).toBe('private');
    expect(readCache(resource({ classification: 'confidential' }), base).cacheScope).toBe('private');
    expect(readCache(resource({ classification: 'restricted' }), base).cacheScope).toBe('private');
    expect(readCache(resource({ classification: 'internal' }), base).cacheScope).toBe('public');
  });

  it('a listing is private exactly when it is filtered per caller', () => {
    const open = listCache(ir({ tools: [{ scopes: [] }] as never, resources: [resource({})] }));
    expect(open['tools/list']).toEqual({ ttlMs: 1000, cacheScope: 'public' });
    expect(open['resources/list']).toEqual({ ttlMs: 1000, cacheScope: 'public' });
    const gated = listCache(ir({ tools: [{ scopes: [] }, { scopes: ['x'] }] as never, prompts: [{ scopes: ['x'] }] as never }));
    expect(gated['tools/list'].cacheScope).toBe('private');
    expect(gated['prompts/list'].cacheScope).toBe('private');
    // Template instances come from a handler and pass the authorize hook: resources/list varies per caller.
    const listed = listCache(ir({ resources: [resource({ uri: undefined, uriTemplate: 'x://{id}', list: true })] }));
    expect(listed['resources/list'].cacheScope).toBe('private');
    expect(listed['resources/templates/list'].cacheScope).toBe('public');
    expect(listed['server/discover']).toEqual({ ttlMs: 1000, cacheScope: 'public' });
  });
});
