import { notImplemented } from 'mcp-gen/runtime';
import type { RepoFileResource } from '../../types.gen.js';

/**
 * Resource `repo-file`: Repository file.
 *
 * One file of a repository at the default branch.
 *
 * URI: repo://{owner}/{name}/blob/{+path} (text/plain). Scopes: repo:read.
 *
 * Throw `resourceNotFound()` when the addressed instance does not exist.
 */
export const repoFile: RepoFileResource = {
  async read(params, ctx) {
    throw notImplemented('resource', 'repo-file');
  },
  complete: {
    path: async (value, context, ctx) => [],
  },
};
