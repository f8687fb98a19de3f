import { didYouMean } from '../suggest.js';
import type { RawPrompt } from '../types.js';
import type { Check, CheckContext, Entry, EntrySummary } from './context.js';

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Argument names, message shape and placeholders of one prompt. */
function checkPrompt(ctx: CheckContext, e: Entry): void {
  if (e.section !== 'prompts') return;
  const { name, value: prompt } = e;
  const args = Object.keys(prompt.arguments ?? {});
  for (const a of args) {
    if (!IDENTIFIER.test(a)) {
      ctx.r.error('MG505', ['prompts', name, 'arguments', a], `argument name \`${a}\` is not a valid identifier`,
        'use letters, digits and `_`, not starting with a digit (e.g. `ticketId`)', 'key');
    }
  }
  (prompt.messages ?? []).forEach((_, i) => checkMessage(ctx, name, prompt, args, i));
}

function checkMessage(ctx: CheckContext, name: string, prompt: RawPrompt, args: string[], i: number): void {
  const msg = prompt.messages![i]!;
  const path = ['prompts', name, 'messages', i];
  if ((msg.text === undefined) === (msg.resource === undefined)) {
    ctx.r.error('MG501', path, `message ${i + 1} of prompt \`${name}\` must have exactly one of \`text\` and \`resource\``,
      'split it into two messages: one with `text`, one with `resource`', 'key');
  }
  if (msg.text !== undefined) {
    for (const match of msg.text.matchAll(PLACEHOLDER)) {
      const arg = match[1]!;
      if (args.includes(arg)) continue;
      const at = [...path, 'text'];
      ctx.r.add(
        {
          code: 'MG500',
          message: `placeholder \`{{${arg}}}\` is not a declared argument of \`${name}\`${didYouMean(arg, args)}`,
          hint: args.length ? `declared arguments: ${args.join(', ')}; or declare \`${arg}\` under arguments:` : `declare \`${arg}\` under arguments:`,
        },
        { path: at, position: ctx.map.locateInString(at, match.index) },
      );
    }
  }
}

/** Every resource a prompt embeds is declared, and its template's variables are arguments of the prompt. */
function checkEmbedded(ctx: CheckContext, entries: readonly EntrySummary[]): void {
  const resources = new Map(entries.filter((e) => e.section === 'resources').map((e) => [e.name, e]));
  for (const p of entries) {
    for (const [i, resource] of p.section === 'prompts' ? (p.embeds ?? []) : []) {
      const at = ['prompts', p.name, 'messages', i, 'resource'];
      const res = resources.get(resource);
      if (!res) {
        const names = [...resources.keys()];
        ctx.r.error('MG502', at, `prompt \`${p.name}\` embeds resource \`${resource}\`, which is not declared${didYouMean(resource, names)}`,
          names.length ? `declared resources: ${names.join(', ')}` : 'declare it under resources:');
        continue;
      }
      if (res.variables === undefined) continue;
      const args = p.args ?? [];
      const missing = res.variables.filter((v) => !args.includes(v));
      if (missing.length) {
        ctx.r.error('MG503', at, `resource \`${resource}\` is a template; its variable(s) ${missing.map((v) => `\`${v}\``).join(', ')} are not arguments of prompt \`${p.name}\``,
          `declare ${missing.join(', ')} under the prompt's arguments: so the URI can be filled in`);
      }
    }
  }
}

/** Argument names, message shape, placeholders and embedded resources. */
export const checkPrompts: Check = { entry: checkPrompt, whole: checkEmbedded };
