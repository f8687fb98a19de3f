import { resourceNotFound } from 'mcp-gen/runtime';
import type { TicketResource } from '../../types.gen.js';
import { allTickets, findTicket, ticketIdsStartingWith } from '../data.js';

/**
 * Resource `ticket`: one ticket as JSON.
 *
 * URI: support://tickets/{ticketId} (application/json). Scopes: tickets:read.
 */
export const ticket: TicketResource = {
  async read(params, ctx) {
    const found = await findTicket(ctx.state, params.ticketId);
    if (!found) throw resourceNotFound();
    return found;
  },
  async list(ctx) {
    return (await allTickets(ctx.state)).map((t) => ({ params: { ticketId: t.id }, name: `ticket ${t.id}`, title: t.subject }));
  },
  complete: {
    ticketId: async (value, _context, ctx) => ticketIdsStartingWith(ctx.state, value),
  },
};
