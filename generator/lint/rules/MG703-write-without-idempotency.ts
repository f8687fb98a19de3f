import type { LintContext, LintFinding, LintRule } from '../types.js';

function check(ctx: LintContext): LintFinding[] {
  return ctx.ir.tools
    .filter((t) => t.sideEffect !== 'read' && t.idempotency === 'none')
    .map((t) => {
      const declared = ctx.manifest.tools?.[t.name]?.idempotency !== undefined;
      return {
        path: declared ? ['tools', t.name, 'idempotency'] : ['tools', t.name],
        at: declared ? 'value' : 'key',
        message: `${t.sideEffect} tool \`${t.name}\` has no idempotency key: a retry after a timeout repeats its effect`,
        hint: 'add `idempotency: required` (every call then carries an idempotency key and a repeat returns the first result), or `idempotency: natural` when repeating the call leaves the same state (an HTTP PUT or DELETE)',
      } satisfies LintFinding;
    });
}

/** MG703: a write or irreversible tool that declares neither `idempotency: required` nor `idempotency: natural`. */
export const rule: LintRule = {
  code: 'MG703',
  name: 'write-without-idempotency',
  defaultSeverity: 'error',
  reads: 'primitive',
  description: 'A `write` or `irreversible` tool that declares neither `idempotency: required` nor `idempotency: natural`.',
  check,
};
