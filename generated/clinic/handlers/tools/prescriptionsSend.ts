import { notImplemented } from 'mcp-gen/runtime';
import type { PrescriptionsSendTool } from '../../types.gen.js';

/**
 * Tool `prescriptions.send`: Send prescription.
 *
 * Send a signed prescription to the patient's pharmacy. Irreversible - the pharmacy may dispense immediately.
 *
 * Side effect: irreversible. Scopes: prescriptions:send. Calls carry an idempotency key. Runs only with an approval.
 *
 * Return the structured output, or throw `new ToolError(message)` for a failure the model should see.
 */
export const prescriptionsSend: PrescriptionsSendTool = async (input, ctx) => {
  throw notImplemented('tool', 'prescriptions.send');
};
