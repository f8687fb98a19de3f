import { ToolError } from 'mcp-gen/runtime';
import type { RefundsSubmitTool } from '../../types.gen.js';
import { exclusive, findDraft, markInvoiceTicketsPending, submitDraft } from '../data.js';

/**
 * Tool `refunds.submit`: Submit refund.
 *
 * Submit an approved refund draft. Irreversible - moves money to the customer.
 *
 * Side effect: irreversible. Scopes: refunds:submit. Calls carry an idempotency key. Runs only with an approval.
 */
export const refundsSubmit: RefundsSubmitTool = async (input, ctx) => {
  await ctx.progress(0, 3, 'checking the draft');
  const { draft, paymentReference, changed } = await exclusive(async () => {
    const draft = await findDraft(ctx.state, input.draftId);
    if (!draft) throw new ToolError(`No refund draft ${input.draftId}. Create one with refunds.create_draft first.`);
    if (draft.status === 'submitted') {
      throw new ToolError(`Refund draft ${draft.draftId} was already submitted (payment ${draft.paymentReference ?? 'unknown'}); nothing was paid twice.`);
    }
    await ctx.progress(1, 3, 'sending the payment');
    // Last chance to stop: after this line the money moves.
    if (ctx.signal.aborted) throw new ToolError(`Submitting ${draft.draftId} was cancelled; nothing was paid.`);
    const paymentReference = await submitDraft(ctx.state, draft.draftId);
    return { draft, paymentReference, changed: await markInvoiceTicketsPending(ctx.state, draft.invoiceId) };
  });
  await ctx.progress(2, 3, 'updating tickets');
  // Tickets about this invoice now wait for the customer to confirm the refund arrived.
  for (const ticketId of changed) await ctx.notifyResourceUpdated(`support://tickets/${ticketId}`);
  await ctx.progress(3, 3, 'done');
  return { draftId: draft.draftId, status: 'submitted', paymentReference };
};
