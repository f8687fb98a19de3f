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
 */
import { McpServer, type McpServerFactory, type Server } from '@modelcontextprotocol/server';

type Product = McpServer | Server;

const lowLevel = (product: Product): Server => (product instanceof McpServer ? product.server : product);

/** The instances serving requests now, by request. */
export class Exchanges {
  private readonly serving = new WeakMap<Request, Server>();
  private readonly owner = new WeakMap<Server, Request>();

  /** `factory`, recording which instance it hands out for which request. */
  track(factory: McpServerFactory): McpServerFactory {
    return async (context) => {
      const product = await factory(context);
      const request = (context as { requestInfo?: unknown }).requestInfo;
      if (request instanceof Request) {
        const server = lowLevel(product);
        this.serving.set(request, server);
        this.owner.set(server, request);
      }
      return product;
    };
  }

  /** The client of `request` went away: its exchange, if one is still being served, is closed. */
  abort(request: Request): void {
    const server = this.serving.get(request);
    this.serving.delete(request);
    if (server === undefined || this.owner.get(server) !== request) return;
    this.owner.delete(server);
    void server.transport?.close().catch(() => undefined);
  }

  /** `request` was answered: nothing of it is left to end. */
  done(request: Request): void {
    const server = this.serving.get(request);
    this.serving.delete(request);
    if (server !== undefined && this.owner.get(server) === request) this.owner.delete(server);
  }
}
