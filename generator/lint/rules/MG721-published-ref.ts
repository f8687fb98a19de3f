import { inputNodes, nodeLabel } from '../inputs.js';
import { recursiveSchemas } from '../schema-walk.js';
import type { LintContext, LintFinding, LintRule } from '../types.js';

function check(ctx: LintContext): LintFinding[] {
  const recursive = recursiveSchemas(ctx.named);
  const out: LintFinding[] = [];
  for (const n of inputNodes(ctx)) {
    const defs = ['$defs', 'definitions'].find((k) => k in n.schema);
    if (defs) {
      out.push({ path: [...n.path, defs], at: 'key', owner: n.owner, message: `${nodeLabel(n)} publishes \`${defs}\``, hint: 'inline the definitions, or move shared shapes under `schemas:` and refer to them with `#/schemas/Name` (non-recursive ones are inlined on publish)' });
    }
    // Inside a recursive schema, its own references are the recursion already reported where it is entered.
    if (n.ref === undefined || (n.path[0] === 'schemas' && recursive.has(String(n.path[1])))) continue;
    const why = recursive.has(n.ref) ? `named schema \`${n.ref}\` is recursive` : Object.keys(n.schema).length > 1 ? `\`$ref\` has sibling keywords` : undefined;
    if (!why) continue;
    out.push({
      path: [...n.path, '$ref'],
      owner: n.owner,
      message: `${nodeLabel(n)} is published with \`$ref\`/\`$defs\` (${why}); several clients do not resolve references in tool inputs`,
      hint: recursive.has(n.ref) ? 'give the input a bounded, non-recursive shape (for example a flat list with `parentId`), and keep the recursive schema for outputs' : 'drop the sibling keywords next to `$ref` (put them in the named schema) so it can be inlined',
    });
  }
  return out;
}

/** MG721: references or definitions that remain in a published tool input schema. */
export const rule: LintRule = {
  code: 'MG721',
  name: 'published-ref',
  defaultSeverity: 'warning',
  reads: 'primitive',
  description: 'A tool input whose published schema keeps `$ref`/`$defs`: a recursive named schema, a `$ref` with sibling keywords, or a `$defs` block.',
  check,
};
