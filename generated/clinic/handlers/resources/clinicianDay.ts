import { notImplemented } from 'mcp-gen/runtime';
import type { ClinicianDayResource } from '../../types.gen.js';

/**
 * Resource `clinician-day`: Clinician's day.
 *
 * One clinician's booked and free slots on one day.
 *
 * URI: clinic://clinicians/{clinicianId}/days/{date} (application/json). Scopes: schedule:read.
 *
 * Throw `resourceNotFound()` when the addressed instance does not exist.
 */
export const clinicianDay: ClinicianDayResource = {
  async read(params, ctx) {
    throw notImplemented('resource', 'clinician-day');
  },
  async list(ctx) {
    throw notImplemented('resource', 'clinician-day');
  },
  complete: {
    clinicianId: async (value, context, ctx) => [],
  },
};
