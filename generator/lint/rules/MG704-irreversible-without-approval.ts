import type { LintContext, LintFinding, LintRule } from '../types.js';

function check(ctx: LintContext): LintFinding[] {
  return ctx.ir.tools
    .filter((t) => t.sideEffect === 'irreversible' && t.approval !== 'required')
    .map((t) => {
      const declared = ctx.manifest.tools?.[t.name]?.approval !== undefined;
      return {
        path: declared ? ['tools', t.name, 'approval'] : ['tools', t.name],
        at: declared ? 'value' : 'key',
        message: `irreversible tool \`${t.name}\` has no approval gate: the model alone could trigger an effect nobody can take back`,
        hint: 'add `approval: required` (a policy gate checks an approval receipt before the handler runs); if the effect can be undone, declare `sideEffect: write` instead',
      } satisfies LintFinding;
    });
}

/** MG704: an irreversible tool without `approval: required`. */
export const rule: LintRule = {
  code: 'MG704',
  name: 'irreversible-without-approval',
  defaultSeverity: 'error',
  reads: 'primitive',
  description: 'An `irreversible` tool that does not declare `approval: required`.',
  check,
};
