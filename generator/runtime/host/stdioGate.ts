/**
 * The gate of 2026 `subscriptions/listen` on stdio. `serveStdio` answers
 * listen requests at its entry, before any server instance sees them, so the
 * transport it reads from is wrapped: a listen request whose filter names a
 * URI the launch identity may not read is answered with -32602 and never
 * reaches the SDK. Deliveries are gated by the runtime itself
 * (`Runtime.deliverResourceUpdated`).
 */
import { McpServer, type JSONRPCMessage, type McpServerFactory, type MessageExtraInfo, type Transport, type TransportSendOptions } from '@modelcontextprotocol/server';
import { auditListenRefusal } from '../security/call.js';
import { runtimeOf, type Runtime } from '../context.js';
import { subscriptionRefusal } from '../subscriptions.js';

/** Wraps `factory` so the runtime of the instance it built last can be found. */
export function trackRuntime(factory: McpServerFactory): { factory: McpServerFactory; runtime: () => Runtime | undefined } {
  let last: Runtime | undefined;
  const note = (product: unknown): void => {
    if (product instanceof McpServer) last = runtimeOf(product) ?? last;
  };
  const tracked: McpServerFactory = (ctx) => {
    const product = factory(ctx);
    if (product instanceof Promise) return product.then((p) => (note(p), p));
    note(product);
    return product;
  };
  return { factory: tracked, runtime: () => last };
}

function listenRequest(message: JSONRPCMessage): { id: string | number; uris: readonly unknown[] } | undefined {
  const m = message as { method?: unknown; id?: unknown; params?: { notifications?: { resourceSubscriptions?: unknown } } };
  if (m.method !== 'subscriptions/listen' || (typeof m.id !== 'string' && typeof m.id !== 'number')) return undefined;
  const uris = m.params?.notifications?.resourceSubscriptions;
  return { id: m.id, uris: Array.isArray(uris) ? uris : [] };
}

/** A transport that refuses listen filters naming resources the caller may not read; everything else passes through in order. */
export class ListenGatedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  /** Messages wait behind a listen request being checked, so their order is kept. */
  private queue: Promise<void> = Promise.resolve();
  private checking = 0;

  constructor(
    private readonly inner: Transport,
    private readonly runtime: () => Runtime | undefined,
    private readonly report: (error: Error) => void,
  ) {
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message, extra) => this.inbound(message, extra);
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private inbound(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    const listen = listenRequest(message);
    const rt = this.runtime();
    if (this.checking === 0 && (!listen || !rt || listen.uris.length === 0)) {
      this.onmessage?.(message, extra);
      return;
    }
    this.checking++;
    this.queue = this.queue
      .then(async () => {
        const refusal = listen && rt ? await this.refusal(rt, listen.uris) : undefined;
        if (refusal === undefined) this.onmessage?.(message, extra);
        else await this.inner.send({ jsonrpc: '2.0', id: listen!.id, error: { code: -32602, message: refusal.message, data: { uri: refusal.uri, reason: 'forbidden' } } });
      })
      .catch((error: unknown) => this.report(error instanceof Error ? error : new Error(String(error))))
      .finally(() => void this.checking--);
  }

  private async refusal(rt: Runtime, uris: readonly unknown[]): Promise<{ message: string; uri: unknown } | undefined> {
    const identity = rt.identifyAuth(undefined);
    for (const uri of uris) {
      const message = typeof uri === 'string' ? await subscriptionRefusal(rt, identity, uri) : 'Invalid params: resource URIs are strings';
      if (message !== undefined) {
        auditListenRefusal(rt, undefined, uri, message);
        return { message, uri };
      }
    }
    return undefined;
  }
}
