import type { LintContext, LintFinding, LintRule } from '../types.js';

function check(ctx: LintContext): LintFinding[] {
  const out: LintFinding[] = [];
  for (const [name, p] of Object.entries(ctx.manifest.prompts ?? {})) {
    for (const [arg, a] of Object.entries(p.arguments ?? {})) {
      if (a.required !== undefined) continue;
      out.push({
        path: ['prompts', name, 'arguments', arg],
        at: 'key',
        message: `argument \`${arg}\` of prompt \`${name}\` does not say whether it is required`,
        hint: `add \`required: true\` if the template is incomplete without it (the value is then checked before the messages are built), or \`required: false\` if the text still reads well when it is empty`,
      });
    }
  }
  return out;
}

/** MG724: a prompt argument that does not declare `required`. */
export const rule: LintRule = {
  code: 'MG724',
  name: 'prompt-argument-required',
  defaultSeverity: 'warning',
  reads: 'primitive',
  description: 'A prompt argument without an explicit `required: true` or `required: false`.',
  check,
};
