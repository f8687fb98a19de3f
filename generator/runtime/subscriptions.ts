/**
 * `installSubscriptions()`: resource update notifications in both eras. Every
 * subscription passes the gates of `resources/read` for each URI (scopes,
 * variables, `authorize`) with the subscriber's identity, and every delivery
 * passes them again, so an update never reaches a caller (or tenant) that may
 * not read the resource.
 *
 * - 2025: McpServer has no `resources/subscribe`, so this installs it and
 *   `resources/unsubscribe`, tracking subscribed URIs (with the identity that
 *   subscribed) per connection; the SDK's `sendResourceUpdated` would
 *   reach every client. Over HTTP each session keeps its instance (see
 *   below).
 * - 2026 over stdio: clients subscribe with `subscriptions/listen`, served by
 *   `serveStdio` and gated by `startStdioServer`; `sendResourceUpdated` on the
 *   instance is filtered per subscription by the SDK.
 * - 2026 over HTTP: instances live for one request, so a handler's
 *   `ctx.notifyResourceUpdated` is published on the bus of every endpoint
 *   `startHttpServer` runs in this process, which gates each listen stream
 *   (`host/listenGate.ts`); out-of-band code uses
 *   `startHttpServer().notifyResourceUpdated`. The host's bus
 *   (`FleetEventBus`) scopes events to the caller's tenant and, with a shared
 *   store, carries them to every replica.
 * - 2025 sessions over HTTP: the host listens on the same bus for each session
 *   and hands an update to the session's runtime, which delivers it only for
 *   URIs the session subscribed to and only while the subscriber may read it,
 *   whichever replica the change was made through.
 */
import { ProtocolError, ProtocolErrorCode, type McpServer } from '@modelcontextprotocol/server';
import { bindRuntime, type Runtime } from './context.js';
import { connectionFor } from './connection.js';
import type { Identity } from './options.js';
import { readRefusal } from './resources.js';
import { auditRefusal } from './security/call.js';

/**
 * Why `identity` may not follow updates of `uri`: the gates of `resources/read` (scopes, variables,
 * `authorize`). A server that declares no resources has nothing to gate.
 */
export async function subscriptionRefusal(rt: Runtime, identity: Identity, uri: string): Promise<string | undefined> {
  if (rt.catalog.resources.length === 0) return undefined;
  return readRefusal(rt, identity, uri);
}

/**
 * Declares `resources.subscribe` and serves 2025 subscribe/unsubscribe on
 * `server`, binding `rt.notifyResourceUpdated` to it. Call before connecting.
 * Every instance that shares `server`'s registrations gets the same, with
 * subscriptions of its own connection.
 */
export function installSubscriptions(server: McpServer, rt: Runtime): void {
  rt.subscriptions.installed = true;
  rt.subscriptions.gate = (identity, uri) => subscriptionRefusal(rt, identity, uri);
  const install = (target: McpServer): void => serveSubscriptions(target, rt);
  rt.installers.push(install);
  install(server);
}

/** The 2025 subscribe/unsubscribe handlers of one instance: URIs are filed on its own connection. */
function serveSubscriptions(server: McpServer, rt: Runtime): void {
  server.server.registerCapabilities({ resources: { subscribe: true } });
  bindRuntime(server, rt);
  const connection = connectionFor(server);
  server.server.setRequestHandler('resources/subscribe', async (request, sdk) => {
    rt.observe(sdk);
    const identity = rt.identify(sdk);
    const refusal = await subscriptionRefusal(rt, identity, request.params.uri);
    if (refusal !== undefined) {
      const outcome = /^Resource not found/.test(refusal) ? 'not_found' : 'forbidden';
      auditRefusal(rt, sdk, 'subscription', request.params.uri.slice(0, 200), outcome, refusal, { uri: request.params.uri });
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, refusal, { reason: outcome });
    }
    connection.uris.set(request.params.uri, identity);
    return {};
  });
  server.server.setRequestHandler('resources/unsubscribe', (request, sdk) => {
    rt.observe(sdk);
    connection.uris.delete(request.params.uri);
    return {};
  });
}
