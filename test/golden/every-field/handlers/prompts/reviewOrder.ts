import type { ReviewOrderPrompt } from '../../types.gen.js';

/**
 * Prompt `review_order`: Review order.
 *
 * Review one order against the terms of service.
 */
export const reviewOrder: ReviewOrderPrompt = {
  complete: {
    orderId: async (value, context, ctx) => [],
  },
};
