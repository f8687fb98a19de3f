/**
 * Server instances reused across 2026-07-28 HTTP requests. The SDK's HTTP
 * entry asks the factory for an instance on every request; building one
 * registers every primitive again, which at 1,000 primitives costs more than
 * the call itself. A finished exchange leaves its instance disconnected and
 * clean (the SDK asserts an instance is not serving before it connects one),
 * so it can serve the next request.
 *
 * The caller's identity is never part of an instance: the runtime reads it
 * from each request (`ctx.http.authInfo`), so one instance serves any caller.
 * That is why the factory is called with `{ era: 'modern' }` alone here; a
 * factory that must build per-caller state needs `instances: 'per-request'`.
 */
import { McpServer, type McpServerFactory, type Server } from '@modelcontextprotocol/server';

/** Most idle instances kept; a burst above it builds instances that are dropped after their exchange. */
export const DEFAULT_MAX_IDLE_INSTANCES = 64;

type Product = McpServer | Server;

const lowLevel = (product: Product): Server => (product instanceof McpServer ? product.server : product);

/**
 * Wraps `factory` so 2026-era requests reuse idle instances; 2025-era construction (sessions, stdio)
 * goes to `factory` unchanged.
 */
export function reusingFactory(factory: McpServerFactory, maxIdle: number = DEFAULT_MAX_IDLE_INSTANCES): McpServerFactory {
  const idle: Product[] = [];
  return async (context) => {
    if (context.era !== 'modern') return factory(context);
    const reused = idle.pop();
    if (reused) return reused;
    const product = await factory({ era: 'modern' });
    const server = lowLevel(product);
    // The entry chains its own per-exchange close hook in front of this one and restores it afterwards,
    // so this runs once at the end of every exchange the instance serves.
    const previous = server.onclose;
    server.onclose = () => {
      previous?.();
      if (server.transport === undefined && idle.length < maxIdle) idle.push(product);
    };
    return product;
  };
}
