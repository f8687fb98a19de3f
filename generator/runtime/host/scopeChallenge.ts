/**
 * Which declared scopes one JSON-RPC request needs, read from the manifest's
 * catalog before the request is dispatched, so an HTTP endpoint can answer a
 * token that lacks them with the 403 `insufficient_scope` challenge (MCP
 * authorization, "Scope Challenge Handling"). Requests whose target is unknown
 * need nothing here: the server answers them itself. Neither does a resource
 * outside the caller's audience: to that caller it does not exist, so it gets the
 * server's "resource not found", never a challenge that would reveal it.
 */
import type { Catalog } from '../context.js';
import { firstOf, lookupOf, templateFor, type CatalogLookup } from '../lookup.js';
import type { Identity } from '../options.js';
import { inAudience } from '../security/audience.js';
import { missingScopes } from '../security/gate.js';
import type { ResourceSpec } from '../types.js';

/** Whether the server has a primitive now (one switched off needs no scope: a challenge would reveal it). */
export type Served = (kind: 'tool' | 'resource' | 'prompt', name: string) => boolean;

const everything: Served = () => true;

/** The scopes of a resource the caller can see; none for one outside its audience. */
function visibleScopes(spec: ResourceSpec | undefined, identity: Identity): readonly string[] {
  return spec === undefined || !inAudience(spec, identity) ? [] : spec.scopes;
}

function resourceScopes(lookup: CatalogLookup, uri: unknown, identity: Identity, served: Served): readonly string[] {
  if (typeof uri !== 'string') return [];
  const resource = (spec: ResourceSpec): boolean => served('resource', spec.name);
  const spec = firstOf(lookup.fixed.get(uri), resource) ?? templateFor(lookup, uri, resource)?.spec;
  return visibleScopes(spec, identity);
}

/**
 * The scopes the request `body` needs from `identity` (one request; batches and notifications need none
 * here), among the primitives `served` says the server has.
 */
export function requiredScopes(catalog: Catalog, body: unknown, identity: Identity, served: Served = everything): readonly string[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return [];
  const { method, params } = body as { method?: unknown; params?: Record<string, unknown> };
  const p = params ?? {};
  const lookup = lookupOf(catalog);
  const named = <T extends { readonly name: string }>(kind: 'tool' | 'prompt', map: ReadonlyMap<string, readonly T[]>, name: unknown): T | undefined =>
    typeof name === 'string' ? firstOf(map.get(name), (spec) => served(kind, spec.name)) : undefined;
  switch (method) {
    case 'tools/call':
      return named('tool', lookup.tools, p['name'])?.scopes ?? [];
    case 'prompts/get':
      return named('prompt', lookup.prompts, p['name'])?.scopes ?? [];
    case 'resources/read':
    case 'resources/subscribe':
      return resourceScopes(lookup, p['uri'], identity, served);
    case 'subscriptions/listen': {
      const uris = (p['notifications'] as { resourceSubscriptions?: unknown } | undefined)?.resourceSubscriptions;
      return [...new Set((Array.isArray(uris) ? uris : []).flatMap((uri) => resourceScopes(lookup, uri, identity, served)))];
    }
    case 'completion/complete': {
      const ref = (p['ref'] ?? {}) as { type?: unknown; name?: unknown; uri?: unknown };
      if (ref.type === 'ref/prompt') return named('prompt', lookup.prompts, ref.name)?.scopes ?? [];
      const template = typeof ref.uri === 'string' ? firstOf(lookup.byTemplate.get(ref.uri), (spec) => served('resource', spec.name)) : undefined;
      return visibleScopes(template, identity);
    }
    default:
      return [];
  }
}

/** The scopes `identity` lacks for `body`. */
export function missingForRequest(catalog: Catalog, body: unknown, identity: Identity, served: Served = everything): readonly string[] {
  return missingScopes(requiredScopes(catalog, body, identity, served), identity.scopes);
}
