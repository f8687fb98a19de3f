import { notImplemented } from 'mcp-gen/runtime';
import type { RefundsCreateDraftTool } from '../../types.gen.js';

/**
 * Tool `refunds.create_draft`: Create refund draft.
 *
 * Create a reversible refund draft for one invoice. Write operation; nothing is paid until refunds.submit.
 *
 * Side effect: write. Scopes: refunds:draft. Calls carry an idempotency key.
 *
 * Return the structured output, or throw `new ToolError(message)` for a failure the model should see.
 */
export const refundsCreateDraft: RefundsCreateDraftTool = async (input, ctx) => {
  throw notImplemented('tool', 'refunds.create_draft');
};
