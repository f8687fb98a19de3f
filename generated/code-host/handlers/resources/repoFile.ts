import { resourceNotFound } from 'mcp-gen/runtime';
import type { RepoFileResource } from '../../types.gen.js';
import { allRepos, findRepo } from '../data.js';

/**
 * Resource `repo-file`: one file of a repository at the default branch.
 *
 * URI: repo://{owner}/{name}/blob/{+path} (text/plain). Scopes: repo:read.
 */
export const repoFile: RepoFileResource = {
  async read(params) {
    // A plain lookup by exact path: nothing here ever touches a real file system.
    const content = findRepo(params)?.files[params.path];
    if (content === undefined) throw resourceNotFound();
    return content;
  },
  complete: {
    path: async (value, context) => {
      const { owner, name } = context.arguments;
      const repos = allRepos().filter((r) => (owner === undefined || r.owner === owner) && (name === undefined || r.name === name));
      const paths = new Set(repos.flatMap((r) => Object.keys(r.files)));
      return [...paths].filter((p) => p.startsWith(value)).sort();
    },
  },
};
