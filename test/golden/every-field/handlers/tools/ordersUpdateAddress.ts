import { notImplemented, type Returns } from 'mcp-gen/runtime';
import type { OrdersUpdateAddressTool } from '../../types.gen.js';

/**
 * Tool `orders.update_address`: Update shipping address.
 *
 * Change the shipping address of an open order. Write operation.
 *
 * Side effect: write. Scopes: orders:write. Calls carry an idempotency key.
 *
 * Return the structured output, or throw `new ToolError(message)` for a failure the model should see.
 */
export const ordersUpdateAddress: OrdersUpdateAddressTool = async (input, ctx): Promise<Returns<OrdersUpdateAddressTool>> => {
  throw notImplemented('tool', 'orders.update_address');
};
