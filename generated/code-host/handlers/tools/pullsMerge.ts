import { notImplemented } from 'mcp-gen/runtime';
import type { PullsMergeTool } from '../../types.gen.js';

/**
 * Tool `pulls.merge`: Merge pull request.
 *
 * Merge a pull request into its base branch. Irreversible - triggers the deployment pipeline.
 *
 * Side effect: irreversible. Scopes: pulls:merge. Calls carry an idempotency key. Runs only with an approval.
 *
 * Return the structured output, or throw `new ToolError(message)` for a failure the model should see.
 */
export const pullsMerge: PullsMergeTool = async (input, ctx) => {
  throw notImplemented('tool', 'pulls.merge');
};
