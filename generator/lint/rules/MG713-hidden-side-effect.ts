import { firstEffect } from '../prose.js';
import type { LintContext, LintFinding, LintPath, LintRule } from '../types.js';

const HINT = 'resources and prompts never change anything: put the effect in a tool with a declared sideEffect (and approval if irreversible) that the model proposes and the user confirms; let the prompt ask for a proposal or a draft, not for the act';

/** Resource descriptions, prompt descriptions and prompt message texts, with their paths. */
function texts(ctx: LintContext): { path: LintPath; text: string; what: string }[] {
  const out: { path: LintPath; text: string; what: string }[] = [];
  for (const r of ctx.ir.resources) {
    if (r.description) out.push({ path: ['resources', r.name, 'description'], text: r.description, what: `resource \`${r.name}\`` });
  }
  for (const p of ctx.ir.prompts) {
    if (p.description) out.push({ path: ['prompts', p.name, 'description'], text: p.description, what: `prompt \`${p.name}\`` });
    (p.messages ?? []).forEach((m, i) => {
      if ('text' in m) out.push({ path: ['prompts', p.name, 'messages', i, 'text'], text: m.text, what: `prompt \`${p.name}\`` });
    });
  }
  return out;
}

function check(ctx: LintContext): LintFinding[] {
  const out: LintFinding[] = [];
  for (const t of texts(ctx)) {
    const effect = firstEffect(t.text);
    if (!effect) continue;
    out.push({ path: t.path, offset: effect.index, message: `${t.what} asks for a side effect ("${effect.word}")`, hint: HINT });
  }
  return out;
}

/** MG713: a resource or prompt whose text asks for (or states) a side effect. */
export const rule: LintRule = {
  code: 'MG713',
  name: 'hidden-side-effect',
  defaultSeverity: 'error',
  reads: 'primitive',
  description: 'A resource description or a prompt description or message that asks for an effect (delete, send, submit, pay…) or says reading it causes one.',
  check,
};
