import { ToolError } from 'mcp-gen/runtime';
import type { TicketsGetTool } from '../../types.gen.js';
import { findTicket } from '../data.js';

/**
 * Tool `tickets.get`: Get ticket.
 *
 * Look up one support ticket by id. Read only. Not for free-text search (use tickets.search).
 *
 * Side effect: read. Scopes: tickets:read.
 */
export const ticketsGet: TicketsGetTool = async (input, ctx) => {
  const ticket = await findTicket(ctx.state, input.ticketId);
  if (!ticket) throw new ToolError(`No ticket ${input.ticketId}. Use tickets.search to find tickets by status or subject.`);
  return ticket;
};
