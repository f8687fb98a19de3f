import { resourceNotFound } from 'mcp-gen/runtime';
import type { IssueResource } from '../../types.gen.js';
import { allRepos, findIssue, findRepo, toIssue } from '../data.js';

/**
 * Resource `issue`: one issue with its discussion.
 *
 * URI: repo://{owner}/{name}/issues/{number} (application/json). Scopes: repo:read.
 */
export const issue: IssueResource = {
  async read(params) {
    const repo = findRepo(params);
    const found = repo && findIssue(repo, params.number);
    if (!found) throw resourceNotFound();
    return { issue: toIssue(found), thread: structuredClone(found.thread) };
  },
  async list() {
    return allRepos().flatMap((r) =>
      r.issues.map((i) => ({ params: { owner: r.owner, name: r.name, number: i.number }, name: `${r.owner}/${r.name}#${i.number}`, title: i.title })),
    );
  },
};
