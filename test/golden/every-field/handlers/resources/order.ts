import { notImplemented, type Returns } from 'mcp-gen/runtime';
import type { OrderResource } from '../../types.gen.js';

/**
 * Resource `order`: Order.
 *
 * One order as JSON.
 *
 * URI: shop://orders/{orderId} (application/json). Scopes: orders:read.
 *
 * Throw `resourceNotFound()` when the addressed instance does not exist.
 */
export const order: OrderResource = {
  async read(params, ctx): Promise<Returns<OrderResource['read']>> {
    throw notImplemented('resource', 'order');
  },
  async list(ctx): Promise<Returns<NonNullable<OrderResource['list']>>> {
    throw notImplemented('resource', 'order');
  },
  complete: {
    orderId: async (value, context, ctx) => [],
  },
};
