import { notImplemented } from 'mcp-gen/runtime';
import type { IssuesCreateTool } from '../../types.gen.js';

/**
 * Tool `issues.create`: Open issue.
 *
 * Open a new issue. Write operation; notifies the repository's watchers.
 *
 * Side effect: write. Scopes: issues:write. Calls carry an idempotency key.
 *
 * Return the structured output, or throw `new ToolError(message)` for a failure the model should see.
 */
export const issuesCreate: IssuesCreateTool = async (input, ctx) => {
  throw notImplemented('tool', 'issues.create');
};
