import type { LintContext, LintFinding, LintRule } from '../types.js';
import { identifierWords } from '../words.js';

/** Whole names that are query knobs, not locators. */
const FILTER_NAMES = new Set(['q', 'filter', 'filters', 'query', 'search', 'sort', 'sortby', 'orderby', 'order', 'limit', 'offset', 'page', 'pagesize', 'perpage', 'cursor', 'where', 'fields', 'select', 'top', 'skip']);
/** Leading or trailing words that make a name a filter (`searchTerm`, `sortOrder`, `statusFilter`). */
const FILTER_WORDS = new Set(['filter', 'query', 'search', 'sort']);

function isFilter(name: string): boolean {
  const words = identifierWords(name);
  if (FILTER_NAMES.has(words.join(''))) return true;
  return FILTER_WORDS.has(words[0] ?? '') || FILTER_WORDS.has(words[words.length - 1] ?? '');
}

function check(ctx: LintContext): LintFinding[] {
  const out: LintFinding[] = [];
  for (const r of ctx.ir.resources) {
    const v = r.variables.find(isFilter);
    if (v === undefined || r.uriTemplate === undefined) continue;
    out.push({
      path: ['resources', r.name, 'uriTemplate'],
      offset: Math.max(0, r.uriTemplate.indexOf(v)),
      message: `template variable \`${v}\` of resource \`${r.name}\` filters rather than locates`,
      hint: 'template variables should name one thing (`{ticketId}`, `{owner}/{repo}`); a search, sort or page belongs in a read tool with typed inputs (for example `tickets.search`)',
    });
  }
  return out;
}

/** MG712: template variables used as filters (`query`, `sort`, `limit`…). */
export const rule: LintRule = {
  code: 'MG712',
  name: 'template-filter-variable',
  defaultSeverity: 'warning',
  reads: 'primitive',
  description: 'A URI template variable named like a filter, search, sort or page (`filter`, `query`, `q`, `search`, `sort`, `limit`…).',
  check,
};
