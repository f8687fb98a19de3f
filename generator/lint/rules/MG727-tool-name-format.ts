import type { LintContext, LintFinding, LintRule } from '../types.js';

/**
 * The tool-name format both served revisions (2025-11-25 and 2026-07-28) state, as SHOULDs: 1-128
 * characters of A-Z a-z 0-9 `_` `-` `.`. A name outside it is legal, so it is advice, not a refusal.
 */
export const SPEC_TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

function check(ctx: LintContext): LintFinding[] {
  return ctx.ir.tools
    .filter((t) => !SPEC_TOOL_NAME.test(t.name))
    .map((t) => ({
      path: ['tools', t.name],
      at: 'key' as const,
      message: `tool name \`${t.name.slice(0, 40)}\` is outside the format the MCP specification recommends (1-128 characters of A-Z a-z 0-9 _ - .); some clients reject it`,
      hint: 'rename it (for example `files.read` or `read_file`) and add `renamedFrom` if it was published; waive the rule if the name is an existing contract',
    }));
}

/** MG727: tool names outside the specification's recommended format. */
export const rule: LintRule = {
  code: 'MG727',
  name: 'tool-name-format',
  defaultSeverity: 'warning',
  reads: 'primitive',
  description: 'A tool name outside the format the specification recommends (A-Z a-z 0-9 _ - ., 1-128 characters).',
  check,
};
