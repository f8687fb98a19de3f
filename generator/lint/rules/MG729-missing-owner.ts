import type { LintContext, LintFinding, LintRule } from '../types.js';
import { declaredPrimitives } from './stewardship.js';

function check(ctx: LintContext): LintFinding[] {
  return declaredPrimitives(ctx, 'MG729')
    .filter((p) => p.owner === undefined)
    .map((p) => ({
      path: [p.section, p.name],
      at: 'key' as const,
      message: `${p.kind} \`${p.name}\` does not name who owns its data or operation (\`owner\`)`,
      hint: 'add `owner:` naming the team or system that answers for it (who to ask when it is wrong, who approves a change); its contract card shows it',
    }));
}

/** MG729: a primitive without `owner`. */
export const rule: LintRule = {
  code: 'MG729',
  name: 'missing-owner',
  defaultSeverity: 'hint',
  description: 'In a manifest that fills contract cards (some primitive declares `outcome` or `owner`, or `lint.rules` names this code), a tool, resource or prompt without `owner:` (the data or operation owner its contract card states).',
  check,
};
