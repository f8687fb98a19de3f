import { notImplemented } from 'mcp-gen/runtime';
import type { TicketsSearchTool } from '../../types.gen.js';

/**
 * Tool `tickets.search`: Search tickets.
 *
 * Find tickets by status and an optional subject phrase. Read only. Not for fetching one known ticket (use tickets.get).
 *
 * Side effect: read. Scopes: tickets:read.
 *
 * Return the structured output, or throw `new ToolError(message)` for a failure the model should see.
 */
export const ticketsSearch: TicketsSearchTool = async (input, ctx) => {
  throw notImplemented('tool', 'tickets.search');
};
