import { notImplemented } from 'mcp-gen/runtime';
import type { TicketsGetTool } from '../../types.gen.js';

/**
 * Tool `tickets.get`: Get ticket.
 *
 * Look up one support ticket by id. Read only. Not for free-text search (use tickets.search).
 *
 * Side effect: read. Scopes: tickets:read.
 *
 * Return the structured output, or throw `new ToolError(message)` for a failure the model should see.
 */
export const ticketsGet: TicketsGetTool = async (input, ctx) => {
  throw notImplemented('tool', 'tickets.get');
};
