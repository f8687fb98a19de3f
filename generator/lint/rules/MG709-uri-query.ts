import type { LintContext, LintFinding, LintRule } from '../types.js';
import { uriShape } from '../uri.js';

function check(ctx: LintContext): LintFinding[] {
  const out: LintFinding[] = [];
  for (const r of ctx.ir.resources) {
    const u = uriShape(r);
    if (!u || u.queryIndex === undefined) continue;
    const names = u.queryNames.map((q) => q.text);
    out.push({
      path: ['resources', r.name, u.key],
      offset: u.queryIndex,
      message: `the address of resource \`${r.name}\` has a query part${names.length ? ` (${names.join(', ')})` : ''}: a resource URI is a location, not a query`,
      hint: `make each variable a path segment if it locates one thing (\`.../${names[0] ?? 'id'}/{${names[0] ?? 'id'}}\`); if it filters, sorts or pages, it is a search: make it a read tool with typed, bounded inputs`,
    });
  }
  return out;
}

/** MG709: a resource URI or template with `?query` or `{?…}` / `{&…}`. */
export const rule: LintRule = {
  code: 'MG709',
  name: 'uri-query',
  defaultSeverity: 'warning',
  reads: 'primitive',
  description: 'A resource URI or URI template with a query part (`?x=`, `{?x}`, `{&x}`).',
  check,
};
