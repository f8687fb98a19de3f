/**
 * Ends a 2026-07-28 exchange whose client went away, without an abort signal
 * on every request. The SDK ends an exchange when its request's signal aborts
 * (it closes the exchange's transport, which aborts the handler's signal and
 * answers 499); the host attaches a signal only to streams (see
 * `nodeAdapter.ts`), and for every other request closes the same transport
 * itself: the factory the SDK calls for the exchange is told which request
 * it serves (`requestInfo`), so the instance serving a request is known.
 *
 * An instance serves one exchange at a time and, reused, the next one: each
 * hand-out makes the new request its owner, so a late disconnect of an
 * earlier request never reaches the exchange the instance serves now.
 *
 * Both ties are properties under symbols of each tracker's own, not entries
 * of `WeakMap`s keyed by the request: V8's young collections keep every key of
 * an old `WeakMap` alive until the next full collection, with all it reaches.
 */
import { McpServer, type McpServerFactory, type Server } from '@modelcontextprotocol/server';

type Product = McpServer | Server;

const lowLevel = (product: Product): Server => (product instanceof McpServer ? product.server : product);

type Tie<T> = Record<symbol, T | undefined>;

/** The instances serving requests now, by request. */
export class Exchanges {
  /** Where a request keeps the instance serving it (a key of this tracker's own). */
  private readonly serving = Symbol('mcp-gen.serving');
  /** Where an instance keeps the request it serves now. */
  private readonly owner = Symbol('mcp-gen.owner');

  /** `factory`, recording which instance it hands out for which request. */
  track(factory: McpServerFactory): McpServerFactory {
    return async (context) => {
      const product = await factory(context);
      const request = (context as { requestInfo?: unknown }).requestInfo;
      if (request instanceof Request) {
        const server = lowLevel(product);
        (request as unknown as Tie<Server>)[this.serving] = server;
        (server as unknown as Tie<Request>)[this.owner] = request;
      }
      return product;
    };
  }

  /** The client of `request` went away: its exchange, if one is still being served, is closed. */
  abort(request: Request): void {
    const server = this.release(request);
    if (server === undefined) return;
    void server.transport?.close().catch(() => undefined);
  }

  /** `request` was answered: nothing of it is left to end. */
  done(request: Request): void {
    this.release(request);
  }

  /** Unties `request`; returns its instance when that still serves it (now untied as well). */
  private release(request: Request): Server | undefined {
    const served = request as unknown as Tie<Server>;
    const server = served[this.serving];
    served[this.serving] = undefined;
    if (server === undefined) return undefined;
    const owned = server as unknown as Tie<Request>;
    if (owned[this.owner] !== request) return undefined;
    owned[this.owner] = undefined;
    return server;
  }
}
