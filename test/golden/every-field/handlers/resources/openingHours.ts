import { notImplemented, type Returns } from 'mcp-gen/runtime';
import type { OpeningHoursResource } from '../../types.gen.js';

/**
 * Resource `opening-hours`: Opening hours.
 *
 * Today's opening hours, computed by a handler.
 *
 * URI: shop://info/opening-hours (text/plain). Scopes: orders:read.
 *
 * Throw `resourceNotFound()` when the addressed instance does not exist.
 */
export const openingHours: OpeningHoursResource = {
  async read(ctx): Promise<Returns<OpeningHoursResource['read']>> {
    throw notImplemented('resource', 'opening-hours');
  },
};
