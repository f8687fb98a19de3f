import { notImplemented } from 'mcp-gen/runtime';
import type { DraftRefundReviewPrompt } from '../../types.gen.js';

/**
 * Prompt `draft_refund_review`: Draft refund review.
 *
 * Review one refund request against the current refund policy.
 */
export const draftRefundReview: DraftRefundReviewPrompt = {
  complete: {
    ticketId: async (value, context, ctx) => [],
  },
};
