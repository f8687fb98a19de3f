import type { TicketsSearchTool } from '../../types.gen.js';
import { allTickets } from '../data.js';

/**
 * Tool `tickets.search`: Search tickets.
 *
 * Find tickets by status and an optional subject phrase. Read only. Not for fetching one known ticket (use tickets.get).
 *
 * Side effect: read. Scopes: tickets:read.
 */
export const ticketsSearch: TicketsSearchTool = async (input, ctx) => {
  // Case-insensitive, as agents rarely know the exact wording of a subject.
  const phrase = input.subjectContains?.toLowerCase();
  const matches = (await allTickets(ctx.state)).filter((t) => t.status === input.status && (phrase === undefined || t.subject.toLowerCase().includes(phrase)));
  return { tickets: matches.slice(0, input.limit ?? 10), total: matches.length };
};
