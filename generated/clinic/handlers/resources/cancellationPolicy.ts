import { notImplemented } from 'mcp-gen/runtime';
import type { CancellationPolicyResource } from '../../types.gen.js';

/**
 * Resource `cancellation-policy`: Cancellation policy.
 *
 * When and how appointments can be cancelled or moved.
 *
 * URI: clinic://policies/cancellation (text/plain).
 *
 * Throw `resourceNotFound()` when the addressed instance does not exist.
 */
export const cancellationPolicy: CancellationPolicyResource = {
  async read(ctx) {
    throw notImplemented('resource', 'cancellation-policy');
  },
};
