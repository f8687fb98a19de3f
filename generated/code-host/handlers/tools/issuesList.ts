import { notImplemented } from 'mcp-gen/runtime';
import type { IssuesListTool } from '../../types.gen.js';

/**
 * Tool `issues.list`: List issues.
 *
 * List a repository's issues by state. Read only. Not for reading one issue's discussion (read the issue resource).
 *
 * Side effect: read. Scopes: repo:read.
 *
 * Return the structured output, or throw `new ToolError(message)` for a failure the model should see.
 */
export const issuesList: IssuesListTool = async (input, ctx) => {
  throw notImplemented('tool', 'issues.list');
};
