import { ToolError } from 'mcp-gen/runtime';
import type { RefundsCreateDraftTool } from '../../types.gen.js';
import { createDraft, exclusive, findInvoice, findSameDraft, refundedOrDrafted } from '../data.js';

/**
 * Tool `refunds.create_draft`: Create refund draft.
 *
 * Create a reversible refund draft for one invoice. Write operation; nothing is paid until refunds.submit.
 *
 * Side effect: write. Scopes: refunds:draft. Calls carry an idempotency key.
 */
export const refundsCreateDraft: RefundsCreateDraftTool = async (input, ctx) => {
  const invoice = findInvoice(input.invoiceId);
  if (!invoice) throw new ToolError(`No invoice ${input.invoiceId}. Take the invoice id from the ticket (tickets.get).`);
  if (input.currency !== invoice.currency) {
    throw new ToolError(`Invoice ${invoice.id} is in ${invoice.currency}; a refund must use the same currency, not ${input.currency}.`);
  }
  const draft = await exclusive(async () => {
    // A retried call must not create a second draft (the manifest promises idempotency).
    const same = await findSameDraft(ctx.state, input);
    if (same) return same;
    const available = invoice.amountMinor - (await refundedOrDrafted(ctx.state, invoice.id));
    if (input.amountMinor > available) {
      throw new ToolError(`Invoice ${invoice.id} has ${available} ${invoice.currency} minor units left to refund (policy section 2); ${input.amountMinor} is too much.`);
    }
    return createDraft(ctx.state, input);
  });
  await ctx.log('info', `created refund draft ${draft.draftId}`, { invoiceId: draft.invoiceId, amountMinor: draft.amountMinor });
  return draft;
};
