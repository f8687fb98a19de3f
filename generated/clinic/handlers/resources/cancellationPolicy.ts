import type { CancellationPolicyResource } from '../../types.gen.js';

/** The policy text (revision 2026-03). */
const POLICY = `Cancellation policy (revision 2026-03)

1. Appointments can be cancelled or moved free of charge up to 24 hours before the start.
2. Later cancellations and missed appointments are recorded; after two in six months, online booking is paused.
3. Urgent complaints are never refused because of earlier cancellations: call the clinic.
4. The clinic may move an appointment when a clinician is ill; the patient is offered the next free slot.
`;

/**
 * Resource `cancellation-policy`: when and how appointments can be cancelled or moved.
 *
 * URI: clinic://policies/cancellation (text/plain).
 */
export const cancellationPolicy: CancellationPolicyResource = {
  async read() {
    return POLICY;
  },
};
