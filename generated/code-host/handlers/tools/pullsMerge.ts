import { ToolError } from 'mcp-gen/runtime';
import type { PullsMergeTool } from '../../types.gen.js';
import { findPull, findRepo, fullName, mergePull } from '../data.js';

/**
 * Tool `pulls.merge`: Merge pull request.
 *
 * Merge a pull request into its base branch. Irreversible - triggers the deployment pipeline.
 *
 * Side effect: irreversible. Scopes: pulls:merge. Calls carry an idempotency key. Runs only with an approval.
 */
export const pullsMerge: PullsMergeTool = async (input, ctx) => {
  const repo = findRepo(input.repo);
  if (!repo) throw new ToolError(`Repository ${fullName(input.repo)} does not exist or is not visible to you.`);
  const pull = findPull(repo, input.number);
  if (!pull) throw new ToolError(`${fullName(repo)} has no pull request #${input.number}.`);
  if (pull.state !== 'open') {
    throw new ToolError(`${fullName(repo)}#${pull.number} is already ${pull.state}${pull.mergeSha ? ` (merge commit ${pull.mergeSha})` : ''}; nothing to merge.`);
  }
  // Accept an abbreviated sha, as git does: the approved commit must be the current head.
  if (!pull.headSha.startsWith(input.expectedHeadSha)) {
    throw new ToolError(`The head of ${fullName(repo)}#${pull.number} moved to ${pull.headSha}; the approval covers ${input.expectedHeadSha}. Review the new commits first.`);
  }
  if (!pull.mergeable) throw new ToolError(`${fullName(repo)}#${pull.number} has conflicts with its base branch; ask the author to rebase.`);
  if (ctx.signal.aborted) throw new ToolError('The merge was cancelled before it started; nothing changed.');
  return { merged: true, mergeSha: mergePull(repo, pull, input.method) };
};
