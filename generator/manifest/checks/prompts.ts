import { parseUriTemplate } from '../uri-template.js';
import { didYouMean } from '../suggest.js';
import type { RawPrompt } from '../types.js';
import { each, type CheckContext } from './context.js';

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Argument names, message shape, placeholders and embedded resources. */
export function checkPrompts(ctx: CheckContext): void {
  for (const [name, prompt] of each(ctx.m.prompts)) {
    const args = Object.keys(prompt.arguments ?? {});
    for (const a of args) {
      if (!IDENTIFIER.test(a)) {
        ctx.r.error('MG505', ['prompts', name, 'arguments', a], `argument name \`${a}\` is not a valid identifier`,
          'use letters, digits and `_`, not starting with a digit (e.g. `ticketId`)', 'key');
      }
    }
    (prompt.messages ?? []).forEach((msg, i) => checkMessage(ctx, name, prompt, args, i));
  }
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
  if (msg.resource !== undefined) checkEmbedded(ctx, name, args, msg.resource, [...path, 'resource']);
}

function checkEmbedded(ctx: CheckContext, prompt: string, args: string[], resource: string, at: (string | number)[]): void {
  const res = ctx.m.resources?.[resource];
  if (!res || !Object.hasOwn(ctx.m.resources!, resource)) {
    const names = Object.keys(ctx.m.resources ?? {});
    ctx.r.error('MG502', at, `prompt \`${prompt}\` embeds resource \`${resource}\`, which is not declared${didYouMean(resource, names)}`,
      names.length ? `declared resources: ${names.join(', ')}` : 'declare it under resources:');
    return;
  }
  if (res.uriTemplate === undefined) return;
  const missing = parseUriTemplate(res.uriTemplate).variables.filter((v) => !args.includes(v));
  if (missing.length) {
    ctx.r.error('MG503', at, `resource \`${resource}\` is a template; its variable(s) ${missing.map((v) => `\`${v}\``).join(', ')} are not arguments of prompt \`${prompt}\``,
      `declare ${missing.join(', ')} under the prompt's arguments: so the URI can be filled in`);
  }
}
