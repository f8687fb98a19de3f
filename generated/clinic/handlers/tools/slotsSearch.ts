import { notImplemented } from 'mcp-gen/runtime';
import type { SlotsSearchTool } from '../../types.gen.js';

/**
 * Tool `slots.search`: Find free slots.
 *
 * Find free appointment slots of one specialty on one day. Read only. Not for looking up an existing appointment.
 *
 * Side effect: read. Scopes: schedule:read.
 *
 * Return the structured output, or throw `new ToolError(message)` for a failure the model should see.
 */
export const slotsSearch: SlotsSearchTool = async (input, ctx) => {
  throw notImplemented('tool', 'slots.search');
};
