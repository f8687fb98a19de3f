import { inputNodes } from '../inputs.js';
import { typesOf } from '../schema-walk.js';
import type { LintContext, LintFinding, LintRule } from '../types.js';
import { identifierWords } from '../words.js';

/** Property names (or last words of them) whose values come from a small fixed set. */
const CATEGORICAL = new Set(['status', 'type', 'kind', 'mode', 'state', 'level', 'priority', 'category', 'severity', 'stage', 'tier', 'visibility', 'role']);

function check(ctx: LintContext): LintFinding[] {
  return inputNodes(ctx)
    .filter((n) => n.property !== undefined && CATEGORICAL.has(identifierWords(n.property).at(-1) ?? ''))
    .filter((n) => typesOf(n.schema).includes('string') && !['enum', 'const', 'pattern', 'format'].some((k) => k in n.schema))
    .map((n) => ({
      path: n.path,
      at: 'key' as const,
      owner: n.owner,
      message: `input \`${n.property}\` of \`${n.tool.name}\` is free text, but its name says it is one of a fixed set`,
      hint: `list the allowed values: \`${n.property}: { enum: [open, pending, closed] }\`; the model then cannot invent a value the server does not know`,
    }));
}

/** MG717: a free-text string property named `status`, `type`, `kind`, `mode`… */
export const rule: LintRule = {
  code: 'MG717',
  name: 'enum-candidate',
  defaultSeverity: 'warning',
  reads: 'primitive',
  description: 'A string input property named like a category (`status`, `type`, `kind`, `mode`, `state`, `level`, `priority`, `category`…) without `enum`.',
  check,
};
