import { notImplemented, type Returns } from 'mcp-gen/runtime';
import type { DynamicTextResourceResource } from '../../types.gen.js';

/**
 * Resource `Dynamic Text Resource`.
 *
 * A text resource addressed by id.
 *
 * URI: demo://resource/dynamic/text/{resourceId} (text/plain).
 *
 * Throw `resourceNotFound()` when the addressed instance does not exist.
 */
export const dynamicTextResource: DynamicTextResourceResource = {
  async read(params, ctx): Promise<Returns<DynamicTextResourceResource['read']>> {
    throw notImplemented('resource', 'Dynamic Text Resource');
  },
};
