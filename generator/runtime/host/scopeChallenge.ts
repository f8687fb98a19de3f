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
import type { Identity } from '../options.js';
import { inAudience } from '../security/audience.js';
import { missingScopes } from '../security/gate.js';
import type { ResourceSpec } from '../types.js';
import { UriTemplate } from '@modelcontextprotocol/server';

/** The scopes of a resource the caller can see; none for one outside its audience. */
function visibleScopes(spec: ResourceSpec | undefined, identity: Identity): readonly string[] {
  return spec === undefined || !inAudience(spec, identity) ? [] : spec.scopes;
}

function resourceScopes(catalog: Catalog, uri: unknown, identity: Identity): readonly string[] {
  if (typeof uri !== 'string') return [];
  const spec: ResourceSpec | undefined =
    catalog.resources.find((r) => r.uri === uri) ?? catalog.resources.find((r) => r.uriTemplate !== undefined && new UriTemplate(r.uriTemplate).match(uri) !== null);
  return visibleScopes(spec, identity);
}

/** The scopes the request `body` needs from `identity` (one request; batches and notifications need none here). */
export function requiredScopes(catalog: Catalog, body: unknown, identity: Identity): readonly string[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return [];
  const { method, params } = body as { method?: unknown; params?: Record<string, unknown> };
  const p = params ?? {};
  switch (method) {
    case 'tools/call':
      return catalog.tools.find((t) => t.name === p['name'])?.scopes ?? [];
    case 'prompts/get':
      return catalog.prompts.find((t) => t.name === p['name'])?.scopes ?? [];
    case 'resources/read':
    case 'resources/subscribe':
      return resourceScopes(catalog, p['uri'], identity);
    case 'subscriptions/listen': {
      const uris = (p['notifications'] as { resourceSubscriptions?: unknown } | undefined)?.resourceSubscriptions;
      return [...new Set((Array.isArray(uris) ? uris : []).flatMap((uri) => resourceScopes(catalog, uri, identity)))];
    }
    case 'completion/complete': {
      const ref = (p['ref'] ?? {}) as { type?: unknown; name?: unknown; uri?: unknown };
      if (ref.type === 'ref/prompt') return catalog.prompts.find((t) => t.name === ref.name)?.scopes ?? [];
      return visibleScopes(catalog.resources.find((r) => r.uriTemplate === ref.uri), identity);
    }
    default:
      return [];
  }
}

/** The scopes `identity` lacks for `body`. */
export function missingForRequest(catalog: Catalog, body: unknown, identity: Identity): readonly string[] {
  return missingScopes(requiredScopes(catalog, body, identity), identity.scopes);
}
