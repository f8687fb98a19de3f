import { notImplemented } from 'mcp-gen/runtime';
import type { TicketResource } from '../../types.gen.js';

/**
 * Resource `ticket`: Ticket.
 *
 * One ticket as JSON.
 *
 * URI: support://tickets/{ticketId} (application/json). Scopes: tickets:read.
 *
 * Throw `resourceNotFound()` when the addressed instance does not exist.
 */
export const ticket: TicketResource = {
  async read(params, ctx) {
    throw notImplemented('resource', 'ticket');
  },
  async list(ctx) {
    throw notImplemented('resource', 'ticket');
  },
  complete: {
    ticketId: async (value, context, ctx) => [],
  },
};
