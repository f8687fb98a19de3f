/**
 * Gates 2026 `subscriptions/listen` over HTTP. The SDK serves listen streams
 * itself and delivers every `resource_updated` event to every stream whose
 * filter names the URI, whoever opened it. Here:
 *
 * - before the SDK sees a listen request, each URI of its filter passes the
 *   gates of `resources/read` with the caller's identity (a refusal is a
 *   JSON-RPC -32602 naming the URI);
 * - the SDK's bus is wrapped, and each stream's listener carries the gate of
 *   the caller that opened it (the listen request runs inside an
 *   `AsyncLocalStorage` scope holding it), so a delivery is checked again.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { InMemoryServerEventBus, McpServer, type AuthInfo, type McpServerFactory, type ServerEvent, type ServerEventBus } from '@modelcontextprotocol/server';
import { runtimeOf } from '../context.js';
import { subscriptionRefusal } from '../subscriptions.js';
import { auditListenRefusal } from '../security/call.js';

/** May the listener that holds this gate receive an update of `uri`? */
type DeliveryGate = (uri: string) => Promise<boolean>;

const opening = new AsyncLocalStorage<DeliveryGate>();

/**
 * `inner` with listeners that remember the gate of the stream that subscribed them; `resource_updated`
 * events reach a listener only once its gate allows the URI.
 */
export function gatedBus(onerror: (error: Error) => void, inner: ServerEventBus = new InMemoryServerEventBus(onerror)): ServerEventBus {
  return {
    publish: (event) => inner.publish(event),
    subscribe(listener) {
      const gate = opening.getStore();
      if (!gate) return inner.subscribe(listener);
      return inner.subscribe((event: ServerEvent) => {
        if (event.kind !== 'resource_updated') return listener(event);
        gate(event.uri).then(
          (allowed) => {
            if (allowed) listener(event);
          },
          (error: unknown) => onerror(error instanceof Error ? error : new Error(String(error))),
        );
      });
    },
  };
}

/** The URIs a `subscriptions/listen` body asks for, or undefined when it is not one. */
function listenUris(body: unknown): { readonly id: unknown; readonly uris: readonly unknown[] } | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const message = body as { method?: unknown; id?: unknown; params?: { notifications?: { resourceSubscriptions?: unknown } } };
  if (message.method !== 'subscriptions/listen') return undefined;
  const requested = message.params?.notifications?.resourceSubscriptions;
  return { id: message.id ?? null, uris: Array.isArray(requested) ? requested : [] };
}

/**
 * Serves one 2026 request through `serve`: a listen request is gated first (with a throwaway instance
 * of the server, for its runtime), then served inside the scope that gives its stream the caller's gate.
 */
export async function gateListen(factory: McpServerFactory, body: unknown, authInfo: AuthInfo | undefined, serve: () => Promise<Response>): Promise<Response> {
  const listen = listenUris(body);
  if (!listen) return serve();
  const product = await factory({ era: 'modern', ...(authInfo ? { authInfo } : {}) } as Parameters<McpServerFactory>[0]);
  const rt = product instanceof McpServer ? runtimeOf(product) : undefined;
  await product.close().catch(() => undefined);
  if (!rt) return serve();
  const identity = rt.identifyAuth(authInfo);
  for (const uri of listen.uris) {
    const refusal = typeof uri === 'string' ? await subscriptionRefusal(rt, identity, uri) : 'Invalid params: resource URIs are strings';
    if (refusal !== undefined) auditListenRefusal(rt, authInfo, uri, refusal);
    if (refusal !== undefined) return Response.json({ jsonrpc: '2.0', id: listen.id, error: { code: -32602, message: refusal, data: { uri, reason: 'forbidden' } } }, { status: 200 });
  }
  const gate: DeliveryGate = async (uri) => (await subscriptionRefusal(rt, identity, uri)) === undefined;
  return opening.run(gate, serve);
}
