import type { IrTool } from '../../ir/types.js';
import { blankNames, firstEffect, READ_ONLY_WORDING, type TextMatch } from '../prose.js';
import type { LintContext, LintFinding, LintRule } from '../types.js';

function contradiction(t: IrTool): { match: TextMatch; message: string; hint: string } | undefined {
  const text = blankNames(t.description ?? '');
  if (t.sideEffect === 'read') {
    const match = firstEffect(text);
    if (!match) return undefined;
    return {
      match,
      message: `read tool \`${t.name}\` says it will "${match.word}", which is not a read`,
      hint: `if it really does, declare \`sideEffect: write\` or \`irreversible\` (better: a separate tool for that effect); otherwise reword the description`,
    };
  }
  const m = READ_ONLY_WORDING.exec(text);
  if (!m || /\bnot\s+$/i.test(text.slice(0, m.index))) return undefined;
  return {
    match: { word: m[0], index: m.index },
    message: `${t.sideEffect} tool \`${t.name}\` calls itself "${m[0]}"`,
    hint: `describe the change it makes ("Write operation; notifies the watchers."), or, if it truly changes nothing, declare \`sideEffect: read\``,
  };
}

function check(ctx: LintContext): LintFinding[] {
  const out: LintFinding[] = [];
  for (const t of ctx.ir.tools) {
    const c = contradiction(t);
    if (c) out.push({ path: ['tools', t.name, 'description'], offset: c.match.index, message: c.message, hint: c.hint });
  }
  return out;
}

/** MG706: a description whose wording contradicts the declared side effect. */
export const rule: LintRule = {
  code: 'MG706',
  name: 'description-contradicts-side-effect',
  defaultSeverity: 'error',
  reads: 'primitive',
  description: 'A read tool whose description says it deletes, sends, pays…, or a write/irreversible tool that calls itself read-only.',
  check,
};
