import { notImplemented, type Returns } from 'mcp-gen/runtime';
import type { OrdersCancelTool } from '../../types.gen.js';

/**
 * Tool `orders.cancel`: Cancel order.
 *
 * Cancel an order and refund it. Irreversible.
 *
 * Side effect: irreversible. Scopes: orders:cancel. Calls carry an idempotency key. Runs only with an approval.
 *
 * Return the structured output, or throw `new ToolError(message)` for a failure the model should see.
 */
export const ordersCancel: OrdersCancelTool = async (input, ctx): Promise<Returns<OrdersCancelTool>> => {
  throw notImplemented('tool', 'orders.cancel');
};
