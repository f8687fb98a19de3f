import { notImplemented } from 'mcp-gen/runtime';
import type { IssueResource } from '../../types.gen.js';

/**
 * Resource `issue`: Issue with discussion.
 *
 * URI: repo://{owner}/{name}/issues/{number} (application/json). Scopes: repo:read.
 *
 * Throw `resourceNotFound()` when the addressed instance does not exist.
 */
export const issue: IssueResource = {
  async read(params, ctx) {
    throw notImplemented('resource', 'issue');
  },
  async list(ctx) {
    throw notImplemented('resource', 'issue');
  },
};
