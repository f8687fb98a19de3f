import { ToolError } from 'mcp-gen/runtime';
import type { IssuesListTool } from '../../types.gen.js';
import { findRepo, fullName, toIssue } from '../data.js';

/**
 * Tool `issues.list`: List issues.
 *
 * List a repository's issues by state. Read only. Not for reading one issue's discussion (read the issue resource).
 *
 * Side effect: read. Scopes: repo:read.
 */
export const issuesList: IssuesListTool = async (input) => {
  const repo = findRepo(input.repo);
  if (!repo) throw new ToolError(`Repository ${fullName(input.repo)} does not exist or is not visible to you.`);
  const state = input.state ?? 'open';
  const issues = repo.issues.filter((i) => state === 'all' || i.state === state);
  // Newest first, like the host's own issue list.
  return { issues: issues.map(toIssue).sort((a, b) => b.number - a.number).slice(0, input.limit ?? 20) };
};
