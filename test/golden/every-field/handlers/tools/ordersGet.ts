import { notImplemented, type Returns } from 'mcp-gen/runtime';
import type { OrdersGetTool } from '../../types.gen.js';

/**
 * Tool `orders.get`: Get order.
 *
 * Look up one order by id. Read only.
 *
 * Side effect: read. Scopes: orders:read.
 *
 * Return the structured output, or throw `new ToolError(message)` for a failure the model should see.
 */
export const ordersGet: OrdersGetTool = async (input, ctx): Promise<Returns<OrdersGetTool>> => {
  throw notImplemented('tool', 'orders.get');
};
