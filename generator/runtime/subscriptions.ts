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
import type { McpServer } from '@modelcontextprotocol/server';
import type { Runtime } from './context.js';

/**
 * Declares `resources.subscribe` and serves 2025 subscribe/unsubscribe on
 * `server`, binding `rt.notifyResourceUpdated` to it. Call before connecting.
 */
export function installSubscriptions(server: McpServer, rt: Runtime): void {
  server.server.registerCapabilities({ resources: { subscribe: true } });
  rt.subscriptions.server = server;
  server.server.setRequestHandler('resources/subscribe', (request, sdk) => {
    rt.observe(sdk);
    rt.subscriptions.uris.add(request.params.uri);
    return {};
  });
  server.server.setRequestHandler('resources/unsubscribe', (request, sdk) => {
    rt.observe(sdk);
    rt.subscriptions.uris.delete(request.params.uri);
    return {};
  });
}
