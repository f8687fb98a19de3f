import type { LintContext, LintFinding, LintRule } from '../types.js';

/** The longest tool name every common client accepts unchanged. */
export const MAX_PORTABLE_TOOL_NAME = 64;

function check(ctx: LintContext): LintFinding[] {
  return ctx.ir.tools
    .filter((t) => t.name.length > MAX_PORTABLE_TOOL_NAME)
    .map((t) => ({
      path: ['tools', t.name],
      at: 'key' as const,
      message: `tool name \`${t.name.slice(0, 24)}…\` is ${t.name.length} characters; several clients cut or reject names over ${MAX_PORTABLE_TOOL_NAME}`,
      hint: `shorten it to ${MAX_PORTABLE_TOOL_NAME} characters or fewer (\`namespace.verb_object\`), and keep the long wording in \`title\` and \`description\`; add \`renamedFrom\` if it was published`,
    }));
}

/** MG719: tool names longer than 64 characters. */
export const rule: LintRule = {
  code: 'MG719',
  name: 'long-tool-name',
  defaultSeverity: 'error',
  reads: 'primitive',
  description: `A tool name longer than ${MAX_PORTABLE_TOOL_NAME} characters (MCP allows 128; several clients stop at 64).`,
  check,
};
