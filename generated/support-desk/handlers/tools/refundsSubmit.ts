import { notImplemented } from 'mcp-gen/runtime';
import type { RefundsSubmitTool } from '../../types.gen.js';

/**
 * Tool `refunds.submit`: Submit refund.
 *
 * Submit an approved refund draft. Irreversible - moves money to the customer.
 *
 * Side effect: irreversible. Scopes: refunds:submit. Calls carry an idempotency key. Runs only with an approval.
 *
 * Return the structured output, or throw `new ToolError(message)` for a failure the model should see.
 */
export const refundsSubmit: RefundsSubmitTool = async (input, ctx) => {
  throw notImplemented('tool', 'refunds.submit');
};
