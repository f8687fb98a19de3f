import { notImplemented } from 'mcp-gen/runtime';
import type { PullsCommentTool } from '../../types.gen.js';

/**
 * Tool `pulls.comment`: Comment on pull request.
 *
 * Add a review comment to a pull request. Write operation; visible to everyone with access.
 *
 * Side effect: write. Scopes: pulls:write. Calls carry an idempotency key.
 *
 * Return the structured output, or throw `new ToolError(message)` for a failure the model should see.
 */
export const pullsComment: PullsCommentTool = async (input, ctx) => {
  throw notImplemented('tool', 'pulls.comment');
};
