/**
 * `mcp-gen lint`: the design rules of the seeds (and client quirks) as
 * diagnostics. `loadManifest` runs them after its own checks; the CLI only
 * prints what they return.
 */
export { lintManifest, CONFIG_CODE, type LintInput } from './engine.js';
export { RULES } from './rules/index.js';
export { renderLintSarif, SARIF_SCHEMA } from './sarif.js';
export { renderLintJson, ruleDoc, summarize, summaryLine, type LintReport, type LintSummary } from './report.js';
export type { LintRule, LintFinding, LintContext, LintBudget, RuleLevel, PrimitiveRef } from './types.js';
