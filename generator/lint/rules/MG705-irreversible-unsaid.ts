import { IRREVERSIBLE_WORDING } from '../prose.js';
import type { LintContext, LintFinding, LintRule } from '../types.js';

function check(ctx: LintContext): LintFinding[] {
  return ctx.ir.tools
    .filter((t) => t.sideEffect === 'irreversible' && !IRREVERSIBLE_WORDING.test(t.description ?? ''))
    .map((t) => ({
      path: t.description !== undefined ? ['tools', t.name, 'description'] : ['tools', t.name],
      at: t.description !== undefined ? 'value' : 'key',
      message: `the description of irreversible tool \`${t.name}\` does not say that its effect cannot be undone`,
      hint: 'say it in the description, with the consequence: "Irreversible - moves money to the customer." The model reads descriptions, not sideEffect',
    }));
}

/** MG705: an irreversible tool whose description never says so. */
export const rule: LintRule = {
  code: 'MG705',
  name: 'irreversible-unsaid',
  defaultSeverity: 'warning',
  reads: 'primitive',
  description: 'An `irreversible` tool whose description does not say "irreversible" (or "cannot be undone", "permanent").',
  check,
};
