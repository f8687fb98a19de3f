import { ToolError } from 'mcp-gen/runtime';
import type { AppointmentsBookTool } from '../../types.gen.js';
import { book, findSlot, holderOf } from '../data.js';

/**
 * Tool `appointments.book`: Book appointment.
 *
 * Book one free slot for a patient. Write operation; the patient gets a confirmation message. Cancellable.
 *
 * Side effect: write. Scopes: appointments:write. Calls carry an idempotency key.
 */
export const appointmentsBook: AppointmentsBookTool = async (input, ctx) => {
  const slot = findSlot(input.slotId);
  if (!slot) throw new ToolError(`No slot ${input.slotId}. Find free slots with slots.search.`);
  const holder = holderOf(slot.slotId);
  // A retried booking for the same patient returns the appointment it already made.
  if (holder?.patientId === input.patientId) return holder;
  if (holder) throw new ToolError(`Slot ${slot.slotId} is already booked. Search again with slots.search for another time.`);
  const appointment = book(slot, input.patientId, input.reason);
  await ctx.log('info', `booked ${appointment.appointmentId}`, { slotId: slot.slotId });
  return appointment;
};
