import { ToolError } from 'mcp-gen/runtime';
import type { PullsCommentTool } from '../../types.gen.js';
import { findPull, findRepo, fullName } from '../data.js';

/**
 * Tool `pulls.comment`: Comment on pull request.
 *
 * Add a review comment to a pull request. Write operation; visible to everyone with access.
 *
 * Side effect: write. Scopes: pulls:write. Calls carry an idempotency key.
 */
export const pullsComment: PullsCommentTool = async (input, ctx) => {
  const repo = findRepo(input.repo);
  if (!repo) throw new ToolError(`Repository ${fullName(input.repo)} does not exist or is not visible to you.`);
  const pull = findPull(repo, input.number);
  if (!pull) throw new ToolError(`${fullName(repo)} has no pull request #${input.number}.`);
  const author = ctx.principal ?? 'assistant';
  // A retried call must not post the same comment twice.
  const repeat = pull.comments.some((c) => c.author === author && c.body === input.body);
  if (!repeat) pull.comments.push({ author, body: input.body });
  return `Comment ${repeat ? 'already present' : 'added'} on ${fullName(repo)}#${pull.number} (${pull.comments.length} comment(s) in total).`;
};
