/**
 * `installSubscriptions()`: resource update notifications in both eras.
 *
 * - 2025: McpServer has no `resources/subscribe`, so this installs it and
 *   `resources/unsubscribe`, tracking subscribed URIs per server instance;
 *   `rt.notifyResourceUpdated(uri)` sends only for subscribed URIs (the SDK's
 *   `sendResourceUpdated` would reach every client).
 * - 2026 over stdio: clients subscribe with `subscriptions/listen`, served by
 *   `serveStdio`; `sendResourceUpdated` on the instance is filtered per
 *   subscription by the SDK, so the runtime just forwards.
 * - 2026 over HTTP: instances live for one request, so a handler's
 *   `ctx.notifyResourceUpdated` is published on the bus of every endpoint
 *   `startHttpServer` runs in this process (the SDK filters per listen
 *   stream); out-of-band code uses `startHttpServer().notifyResourceUpdated`.
 *   Multi-process deployments need the SDK's `bus` option (not wired yet).
 * - 2025 over stateless HTTP cannot deliver notifications at all.
 */
import { ProtocolError, ProtocolErrorCode, UriTemplate, type McpServer } from '@modelcontextprotocol/server';
import type { Runtime } from './context.js';
import { auditRefusal } from './security/call.js';
import { missingScopes, scopeRefusal } from './security/gate.js';

/** Refuses a subscription to a URI the caller may not read (or that no declared resource serves). */
function checkSubscription(rt: Runtime, uri: string, scopes: readonly string[]): void {
  const spec = rt.catalog.resources.find((r) => (r.uri !== undefined ? r.uri === uri : r.uriTemplate !== undefined && new UriTemplate(r.uriTemplate).match(uri) !== null));
  if (rt.catalog.resources.length > 0 && !spec) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Resource not found: ${uri}`);
  const missing = missingScopes(spec?.scopes ?? [], scopes);
  if (missing.length > 0) throw new ProtocolError(ProtocolErrorCode.InvalidParams, scopeRefusal('resource', spec?.name ?? uri, missing), { reason: 'forbidden' });
}

/**
 * Declares `resources.subscribe` and serves 2025 subscribe/unsubscribe on
 * `server`, binding `rt.notifyResourceUpdated` to it. Call before connecting.
 */
export function installSubscriptions(server: McpServer, rt: Runtime): void {
  server.server.registerCapabilities({ resources: { subscribe: true } });
  rt.subscriptions.server = server;
  server.server.setRequestHandler('resources/subscribe', (request, sdk) => {
    rt.observe(sdk);
    try {
      checkSubscription(rt, request.params.uri, rt.identify(sdk).scopes);
    } catch (error) {
      const forbidden = (error as { data?: { reason?: unknown } }).data?.reason === 'forbidden';
      auditRefusal(rt, sdk, 'subscription', request.params.uri.slice(0, 200), forbidden ? 'forbidden' : 'not_found', error instanceof Error ? error.message : String(error), { uri: request.params.uri });
      throw error;
    }
    rt.subscriptions.uris.add(request.params.uri);
    return {};
  });
  server.server.setRequestHandler('resources/unsubscribe', (request, sdk) => {
    rt.observe(sdk);
    rt.subscriptions.uris.delete(request.params.uri);
    return {};
  });
}
