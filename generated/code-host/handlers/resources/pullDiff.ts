import { resourceNotFound } from 'mcp-gen/runtime';
import type { PullDiffResource } from '../../types.gen.js';
import { findPull, findRepo } from '../data.js';

/**
 * Resource `pull-diff`: the unified diff of one pull request.
 *
 * URI: repo://{owner}/{name}/pulls/{number}/diff (text/x-diff). Scopes: repo:read.
 */
export const pullDiff: PullDiffResource = {
  async read(params) {
    const repo = findRepo(params);
    const pull = repo && findPull(repo, params.number);
    if (!pull) throw resourceNotFound();
    return pull.diff;
  },
};
