import { WHEN_NOT_WORDING } from '../prose.js';
import type { LintContext, LintFinding, LintRule } from '../types.js';

function check(ctx: LintContext): LintFinding[] {
  return ctx.ir.tools
    .filter((t) => t.sideEffect === 'read' && !WHEN_NOT_WORDING.test(t.description ?? ''))
    .map((t) => ({
      path: t.description !== undefined ? ['tools', t.name, 'description'] : ['tools', t.name],
      at: t.description !== undefined ? 'value' : 'key',
      message: `read tool \`${t.name}\` says what it is for but not when not to use it`,
      hint: 'add one sentence that rules out the nearest wrong use and names the better choice, e.g. "Not for <the nearest wrong use> (use <the right tool or resource>)."',
    }));
}

/** MG708: a read tool description without a "when not to use" sentence. */
export const rule: LintRule = {
  code: 'MG708',
  name: 'read-tool-when-not',
  defaultSeverity: 'hint',
  reads: 'primitive',
  description: 'A read tool whose description says when to use it but never when not to.',
  check,
};
