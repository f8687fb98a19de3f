/**
 * Which declared scopes one JSON-RPC request needs, read from the manifest's
 * catalog before the request is dispatched, so an HTTP endpoint can answer a
 * token that lacks them with the 403 `insufficient_scope` challenge (MCP
 * authorization, "Scope Challenge Handling"). Requests whose target is unknown
 * need nothing here: the server answers them itself.
 */
import type { Catalog } from '../context.js';
import { missingScopes } from '../security/gate.js';
import type { ResourceSpec } from '../types.js';
import { UriTemplate } from '@modelcontextprotocol/server';

function resourceScopes(catalog: Catalog, uri: unknown): readonly string[] {
  if (typeof uri !== 'string') return [];
  const spec: ResourceSpec | undefined =
    catalog.resources.find((r) => r.uri === uri) ?? catalog.resources.find((r) => r.uriTemplate !== undefined && new UriTemplate(r.uriTemplate).match(uri) !== null);
  return spec?.scopes ?? [];
}

/** The scopes the request `body` needs (one request; batches and notifications need none here). */
export function requiredScopes(catalog: Catalog, body: unknown): readonly string[] {
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
      return resourceScopes(catalog, p['uri']);
    case 'subscriptions/listen': {
      const uris = (p['notifications'] as { resourceSubscriptions?: unknown } | undefined)?.resourceSubscriptions;
      return [...new Set((Array.isArray(uris) ? uris : []).flatMap((uri) => resourceScopes(catalog, uri)))];
    }
    case 'completion/complete': {
      const ref = (p['ref'] ?? {}) as { type?: unknown; name?: unknown; uri?: unknown };
      if (ref.type === 'ref/prompt') return catalog.prompts.find((t) => t.name === ref.name)?.scopes ?? [];
      return catalog.resources.find((r) => r.uriTemplate === ref.uri)?.scopes ?? [];
    }
    default:
      return [];
  }
}

/** The scopes `granted` lacks for `body`. */
export function missingForRequest(catalog: Catalog, body: unknown, granted: readonly string[]): readonly string[] {
  return missingScopes(requiredScopes(catalog, body), granted);
}
