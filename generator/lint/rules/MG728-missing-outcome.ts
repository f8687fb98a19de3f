import type { LintContext, LintFinding, LintRule } from '../types.js';
import { declaredPrimitives } from './stewardship.js';

function check(ctx: LintContext): LintFinding[] {
  return declaredPrimitives(ctx, 'MG728')
    .filter((p) => p.outcome === undefined)
    .map((p) => ({
      path: [p.section, p.name],
      at: 'key' as const,
      message: `${p.kind} \`${p.name}\` does not say what the user gets from it (\`outcome\`)`,
      hint: 'add `outcome:` with one line a reviewer can check the primitive against, e.g. "The agent sees one ticket\'s status before acting on it"; its contract card shows it',
    }));
}

/** MG728: a primitive without `outcome`. */
export const rule: LintRule = {
  code: 'MG728',
  name: 'missing-outcome',
  defaultSeverity: 'hint',
  description: 'In a manifest that fills contract cards (some primitive declares `outcome` or `owner`, or `lint.rules` names this code), a tool, resource or prompt without `outcome:` (the user outcome its contract card states).',
  check,
};
