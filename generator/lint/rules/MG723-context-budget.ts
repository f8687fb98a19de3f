import { summariesOf } from '../by-primitive.js';
import { toolTokens } from '../tokens.js';
import type { LintContext, LintFinding, LintRule } from '../types.js';

/** The default `lint.budget.contextBudgetTokens`. */
export const DEFAULT_CONTEXT_BUDGET_TOKENS = 8000;

function check(ctx: LintContext): LintFinding[] {
  // The same count the contract cards print as each tool's context cost (lint/tokens.ts), measured per tool.
  const tokens = summariesOf(ctx, rule);
  const costs = ctx.ir.tools.map((t) => ({ name: t.name, tokens: tokens.get(t) as number }));
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
  // Sums all tools against `lint.budget`; each tool's cost is its summary.
  reads: 'manifest',
  summarise: (one, p) => (p.kind === 'tool' ? toolTokens(p, one.named) : null),
  description: `The tool catalog (names, titles, descriptions and published input schemas, at about 4 characters a token) exceeds \`lint.budget.contextBudgetTokens\` (default ${DEFAULT_CONTEXT_BUDGET_TOKENS}).`,
  check,
};
