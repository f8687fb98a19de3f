import { resourceNotFound } from 'mcp-gen/runtime';
import type { ClinicianDayResource } from '../../types.gen.js';
import { clinicianDays, clinicianIdsStartingWith, findClinician, holderOf, slotsOn } from '../data.js';

/**
 * Resource `clinician-day`: one clinician's booked and free slots on one day.
 *
 * URI: clinic://clinicians/{clinicianId}/days/{date} (application/json). Scopes: schedule:read.
 */
export const clinicianDay: ClinicianDayResource = {
  async read(params) {
    // Any date of a known clinician exists (possibly without slots); unknown clinicians do not.
    if (!findClinician(params.clinicianId)) throw resourceNotFound();
    const slots = slotsOn(params.clinicianId, params.date);
    return { clinicianId: params.clinicianId, date: params.date, slots, booked: slots.filter((s) => holderOf(s.slotId)).length };
  },
  async list() {
    return clinicianDays().map((params) => ({
      params,
      name: `${params.clinicianId} on ${params.date}`,
      title: `${findClinician(params.clinicianId)?.name ?? params.clinicianId}, ${params.date}`,
    }));
  },
  complete: {
    clinicianId: async (value) => clinicianIdsStartingWith(value),
  },
};
