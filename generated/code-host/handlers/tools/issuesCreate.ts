import { ToolError } from 'mcp-gen/runtime';
import type { IssuesCreateTool } from '../../types.gen.js';
import { findRepo, fullName, openIssue, toIssue } from '../data.js';

/**
 * Tool `issues.create`: Open issue.
 *
 * Open a new issue. Write operation; notifies the repository's watchers.
 *
 * Side effect: write. Scopes: issues:write. Calls carry an idempotency key.
 */
export const issuesCreate: IssuesCreateTool = async (input, ctx) => {
  const repo = findRepo(input.repo);
  if (!repo) throw new ToolError(`Repository ${fullName(input.repo)} does not exist or is not visible to you.`);
  const labels = input.labels ?? [];
  // A retried call must not open a duplicate: the same open title and labels returns the existing issue.
  const existing = repo.issues.find((i) => i.state === 'open' && i.title === input.title && i.labels.join() === labels.join());
  if (existing) return toIssue(existing);
  const issue = openIssue(repo, input.title, labels, input.body, ctx.principal ?? 'assistant');
  await ctx.log('info', `opened ${fullName(repo)}#${issue.number}`);
  return toIssue(issue);
};
