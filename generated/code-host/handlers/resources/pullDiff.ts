import { notImplemented } from 'mcp-gen/runtime';
import type { PullDiffResource } from '../../types.gen.js';

/**
 * Resource `pull-diff`: Pull request diff.
 *
 * URI: repo://{owner}/{name}/pulls/{number}/diff (text/x-diff). Scopes: repo:read.
 *
 * Throw `resourceNotFound()` when the addressed instance does not exist.
 */
export const pullDiff: PullDiffResource = {
  async read(params, ctx) {
    throw notImplemented('resource', 'pull-diff');
  },
};
