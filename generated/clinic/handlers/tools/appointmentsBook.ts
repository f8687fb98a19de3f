import { notImplemented } from 'mcp-gen/runtime';
import type { AppointmentsBookTool } from '../../types.gen.js';

/**
 * Tool `appointments.book`: Book appointment.
 *
 * Book one free slot for a patient. Write operation; the patient gets a confirmation message. Cancellable.
 *
 * Side effect: write. Scopes: appointments:write. Calls carry an idempotency key.
 *
 * Return the structured output, or throw `new ToolError(message)` for a failure the model should see.
 */
export const appointmentsBook: AppointmentsBookTool = async (input, ctx) => {
  throw notImplemented('tool', 'appointments.book');
};
