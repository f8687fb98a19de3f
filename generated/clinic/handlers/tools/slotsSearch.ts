import type { SlotsSearchTool } from '../../types.gen.js';
import { freeSlots } from '../data.js';

/**
 * Tool `slots.search`: Find free slots.
 *
 * Find free appointment slots of one specialty on one day. Read only. Not for looking up an existing appointment.
 *
 * Side effect: read. Scopes: schedule:read.
 */
export const slotsSearch: SlotsSearchTool = async (input) => ({
  // The output schema caps the list at 50.
  slots: freeSlots(input.specialty, input.date, input.minutes).slice(0, 50),
});
