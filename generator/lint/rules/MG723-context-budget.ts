import { inlineNamed } from '../schema-walk.js';
import type { LintContext, LintFinding, LintRule } from '../types.js';

/** The default `lint.budget.contextBudgetTokens`. */
export const DEFAULT_CONTEXT_BUDGET_TOKENS = 8000;

/** Tokens a tool costs in a client's context: name, title, description and published input, at ≈ 4 characters a token. */
export function toolTokens(ctx: LintContext, i: number): number {
  const t = ctx.ir.tools[i]!;
  const chars = t.name.length + (t.title?.length ?? 0) + (t.description?.length ?? 0) + JSON.stringify(inlineNamed(t.input, ctx.named)).length;
  return Math.ceil(chars / 4);
}

function check(ctx: LintContext): LintFinding[] {
  const costs = ctx.ir.tools.map((t, i) => ({ name: t.name, tokens: toolTokens(ctx, i) }));
  const total = costs.reduce((s, c) => s + c.tokens, 0);
  const budget = ctx.budget.contextBudgetTokens;
  if (total <= budget) return [];
  const top = [...costs].sort((a, b) => b.tokens - a.tokens).slice(0, 3).map((c) => `\`${c.name}\` ≈ ${c.tokens}`);
  return [{
    path: ['tools'],
    at: 'key',
    message: `the tool catalog costs about ${total} tokens of context, over the budget of ${budget} (${costs.length} tool${costs.length === 1 ? '' : 's'})`,
    hint: `largest: ${top.join(', ')}; move reference text into resources, drop tools the model rarely needs, shorten descriptions, or raise \`lint.budget.contextBudgetTokens\``,
  }];
}

/** MG723: tool names, descriptions and input schemas together exceed the context budget. */
export const rule: LintRule = {
  code: 'MG723',
  name: 'context-budget',
  defaultSeverity: 'warning',
  description: `The tool catalog (names, titles, descriptions and published input schemas, at about 4 characters a token) exceeds \`lint.budget.contextBudgetTokens\` (default ${DEFAULT_CONTEXT_BUDGET_TOKENS}).`,
  check,
};
