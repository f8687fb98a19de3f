import type { DraftRefundReviewPrompt } from '../../types.gen.js';
import { ticketIdsStartingWith } from '../data.js';

/**
 * Prompt `draft_refund_review`: Draft refund review (messages come from the manifest).
 *
 * Review one refund request against the current refund policy.
 */
export const draftRefundReview: DraftRefundReviewPrompt = {
  complete: {
    ticketId: async (value, _context, ctx) => ticketIdsStartingWith(ctx.state, value),
  },
};
