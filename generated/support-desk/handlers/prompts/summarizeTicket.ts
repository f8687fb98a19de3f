import { notImplemented } from 'mcp-gen/runtime';
import type { SummarizeTicketPrompt } from '../../types.gen.js';

/**
 * Prompt `summarize_ticket`: Summarize ticket.
 *
 * Summarize one ticket's history for a handover note.
 */
export const summarizeTicket: SummarizeTicketPrompt = {
  async get(args, ctx) {
    throw notImplemented('prompt', 'summarize_ticket');
  },
};
