import { CONFIRM_WORDING, isNegated } from '../prose.js';
import type { LintContext, LintFinding, LintPath, LintRule } from '../types.js';

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function check(ctx: LintContext): LintFinding[] {
  const irreversible = ctx.ir.tools.filter((t) => t.sideEffect === 'irreversible').map((t) => t.name);
  if (irreversible.length === 0) return [];
  const mention = new RegExp(`(?<![\\w.-])(${irreversible.map(escape).join('|')})(?![\\w-]|\\.\\w)`, 'g');
  const out: LintFinding[] = [];
  for (const p of ctx.ir.prompts) {
    const parts: { path: LintPath; text: string }[] = [
      ...(p.description ? [{ path: ['prompts', p.name, 'description'], text: p.description }] : []),
      ...(p.messages ?? []).flatMap((m, i) => ('text' in m ? [{ path: ['prompts', p.name, 'messages', i, 'text'], text: m.text }] : [])),
    ];
    if (CONFIRM_WORDING.test(parts.map((x) => x.text).join('\n'))) continue;
    for (const part of parts) {
      const m = [...part.text.matchAll(mention)].find((x) => !isNegated(part.text, x.index));
      if (!m) continue;
      out.push({
        path: part.path,
        offset: m.index,
        message: `prompt \`${p.name}\` tells the model to use irreversible tool \`${m[1]}\` without asking for confirmation`,
        hint: `have the prompt ask for a proposal and the user's explicit confirmation first ("...then ask me to confirm before calling ${m[1]}"); the approval gate still applies on the server`,
      });
      break;
    }
  }
  return out;
}

/** MG714: a prompt that directs the model to an irreversible tool with no confirmation step. */
export const rule: LintRule = {
  code: 'MG714',
  name: 'prompt-calls-irreversible',
  defaultSeverity: 'error',
  description: 'A prompt whose text names an irreversible tool (not in a "do not" sentence) and never says to confirm or ask first.',
  check,
};
