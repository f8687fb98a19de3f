/**
 * The lint configuration a manifest carries: `lint.rules` (severity per code,
 * or `off`), `lint.budget`, and per-primitive waivers `lint.disable` with a
 * reason each. Shape is checked by the manifest schema; this module reads it.
 */
import type { Severity } from '../diagnostics.js';
import type { Ir } from '../ir/types.js';
import type { RawManifest } from '../manifest/types.js';
import { DEFAULT_CONTEXT_BUDGET_TOKENS } from './rules/MG723-context-budget.js';
import type { LintBudget, LintPath, LintRule, PrimitiveRef, RuleLevel } from './types.js';

/** One `lint.disable` entry of one primitive. */
export interface Waiver {
  readonly owner: PrimitiveRef;
  readonly code: string;
  readonly reason: string;
  /** Manifest path of the reason. */
  readonly path: LintPath;
}

/** The resolved configuration: a level per rule, the budget and every waiver. */
export interface ResolvedConfig {
  readonly levels: ReadonlyMap<string, RuleLevel>;
  readonly budget: LintBudget;
  readonly waivers: readonly Waiver[];
}

const KINDS = ['tools', 'resources', 'prompts'] as const;

/**
 * Reads `lint:` from a shape-valid manifest, and every primitive's `lint.disable` from its IR (the reasons
 * trimmed there, which leaves an empty one empty).
 */
export function resolveConfig(m: RawManifest, ir: Pick<Ir, 'tools' | 'resources' | 'prompts'>, rules: readonly LintRule[]): ResolvedConfig {
  const levels = new Map<string, RuleLevel>(rules.map((r) => [r.code, m.lint?.rules?.[r.code] ?? r.defaultSeverity]));
  const budget = { contextBudgetTokens: m.lint?.budget?.contextBudgetTokens ?? DEFAULT_CONTEXT_BUDGET_TOKENS };
  const waivers: Waiver[] = [];
  for (const kind of KINDS) {
    for (const p of ir[kind]) {
      for (const { code, reason } of p.lintWaivers ?? []) waivers.push({ owner: { kind, name: p.name }, code, reason, path: [kind, p.name, 'lint', 'disable', code] });
    }
  }
  return { levels, budget, waivers };
}

/** The severity a level maps to, or undefined for `off`. */
export function severityOf(level: RuleLevel | undefined): Severity | undefined {
  return level === 'off' ? undefined : level;
}
