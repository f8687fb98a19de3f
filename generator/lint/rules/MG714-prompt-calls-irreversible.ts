import { keyHash } from '../../cache.js';
import { CONFIRM_WORDING, isNegated } from '../prose.js';
import type { LintContext, LintFinding, LintPath, LintRule } from '../types.js';

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

type Part = { readonly path: LintPath; readonly text: string };

/** The finding on one prompt, or null: a function of its name, its texts and the irreversible tools' names alone. */
function promptFinding(name: string, parts: readonly Part[], mention: () => RegExp): LintFinding | null {
  if (CONFIRM_WORDING.test(parts.map((x) => x.text).join('\n'))) return null;
  for (const part of parts) {
    const m = [...part.text.matchAll(mention())].find((x) => !isNegated(part.text, x.index));
    if (!m) continue;
    return {
      path: part.path,
      offset: m.index,
      message: `prompt \`${name}\` tells the model to use irreversible tool \`${m[1]}\` without asking for confirmation`,
      hint: `have the prompt ask for a proposal and the user's explicit confirmation first ("...then ask me to confirm before calling ${m[1]}"); the approval gate still applies on the server`,
    };
  }
  return null;
}

function check(ctx: LintContext): LintFinding[] {
  const irreversible = ctx.ir.tools.filter((t) => t.sideEffect === 'irreversible').map((t) => t.name);
  if (irreversible.length === 0) return [];
  let regex: RegExp | undefined;
  const mention = (): RegExp => (regex ??= new RegExp(`(?<![\\w.-])(${irreversible.map(escape).join('|')})(?![\\w-]|\\.\\w)`, 'g'));
  // Every prompt's key holds the names: their hash, so a key is as long as the prompt's texts, not the catalog's names.
  const names = keyHash(JSON.stringify(irreversible));
  const out: LintFinding[] = [];
  for (const p of ctx.ir.prompts) {
    const parts: Part[] = [
      ...(p.description ? [{ path: ['prompts', p.name, 'description'], text: p.description }] : []),
      ...(p.messages ?? []).flatMap((m, i) => ('text' in m ? [{ path: ['prompts', p.name, 'messages', i, 'text'], text: m.text }] : [])),
    ];
    // Kept per prompt under exactly what it reads, so a change elsewhere does not match its texts again.
    const found = ctx.remember(`MG714\u0000${names}\u0000${JSON.stringify([p.name, parts])}`, () => promptFinding(p.name, parts, mention));
    if (found) out.push(found);
  }
  return out;
}

/** MG714: a prompt that directs the model to an irreversible tool with no confirmation step. */
export const rule: LintRule = {
  code: 'MG714',
  name: 'prompt-calls-irreversible',
  defaultSeverity: 'error',
  // Compares every prompt's text with the names of every irreversible tool.
  reads: 'manifest',
  description: 'A prompt whose text names an irreversible tool (not in a "do not" sentence) and never says to confirm or ask first.',
  check,
};
