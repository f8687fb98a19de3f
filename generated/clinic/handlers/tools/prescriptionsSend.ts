import { ToolError } from 'mcp-gen/runtime';
import type { PrescriptionsSendTool } from '../../types.gen.js';
import { findAppointment, pharmacyOf, prescriptionsOf, recordPrescription } from '../data.js';

/**
 * Tool `prescriptions.send`: Send prescription.
 *
 * Send a signed prescription to the patient's pharmacy. Irreversible - the pharmacy may dispense immediately.
 *
 * Side effect: irreversible. Scopes: prescriptions:send. Calls carry an idempotency key. Runs only with an approval.
 */
export const prescriptionsSend: PrescriptionsSendTool = async (input, ctx) => {
  const record = findAppointment(input.appointmentId);
  if (!record) throw new ToolError(`No appointment ${input.appointmentId}. A prescription must belong to an appointment.`);
  const { appointment } = record;
  if (appointment.status !== 'booked') throw new ToolError(`Appointment ${appointment.appointmentId} was cancelled; prescribe from the visit that took place.`);
  const earlier = prescriptionsOf(appointment.appointmentId).find((p) => p.medication === input.medication);
  // The same prescription again is a retry: answer as the first time, never dispense twice.
  if (earlier && earlier.days === input.days) return `Prescription ${earlier.reference} was already sent to ${earlier.pharmacy}; not sent again.`;
  if (earlier) throw new ToolError(`${input.medication} was already prescribed for ${earlier.days} days on this appointment (${earlier.reference}); a change needs a new visit.`);
  const pharmacy = pharmacyOf(appointment.patientId);
  if (!pharmacy) throw new ToolError(`Patient ${appointment.patientId} has no pharmacy on file; ask the front desk to add one.`);
  if (ctx.signal.aborted) throw new ToolError('Sending was cancelled; the pharmacy received nothing.');
  const sent = recordPrescription(input, pharmacy);
  return `Sent prescription ${sent.reference} to ${pharmacy}: ${sent.medication} for ${sent.days} day(s), patient ${appointment.patientId}, appointment ${appointment.appointmentId}.`;
};
