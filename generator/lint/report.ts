/**
 * The machine-readable form of a lint run (`mcp-gen lint --json`) and the
 * one-line summary of the text form. Builds strings; never prints.
 */
import { type Diagnostic, reported } from '../diagnostics.js';
import { RULES } from './rules/index.js';
import { CONFIG_CODE } from './engine.js';

/** The lint findings of one manifest. */
export interface LintReport {
  readonly manifest: string;
  readonly diagnostics: readonly Diagnostic[];
}

/** Counts per severity. */
export interface LintSummary {
  readonly errors: number;
  readonly warnings: number;
  readonly hints: number;
}

/** Counts the findings of a run by severity. */
export function summarize(diagnostics: readonly Diagnostic[]): LintSummary {
  const n = (s: Diagnostic['severity']): number => diagnostics.filter((d) => d.severity === s).length;
  return { errors: n('error'), warnings: n('warning'), hints: n('hint') };
}

/** `2 errors, 1 warning, 0 hints`. */
export function summaryLine(s: LintSummary): string {
  const part = (k: number, w: string): string => `${k} ${w}${k === 1 ? '' : 's'}`;
  return `${part(s.errors, 'error')}, ${part(s.warnings, 'warning')}, ${part(s.hints, 'hint')}`;
}

/** The documentation page of a lint code (MG7xx), relative to the repository root. */
export function ruleDoc(code: string): string | undefined {
  return code === CONFIG_CODE || RULES.some((r) => r.code === code) ? `docs/rules/${code}.md` : undefined;
}

/**
 * The JSON printed by `mcp-gen lint --json`: `{ ok, summary, manifests: [{ manifest, ok, summary, diagnostics }] }`.
 * Each diagnostic keeps its fields and gains `rule` (the rule name) and `docs` for MG7xx codes.
 */
export function renderLintJson(reports: readonly LintReport[]): string {
  const all = reports.flatMap((r) => r.diagnostics);
  const manifests = reports.map((r) => ({
    manifest: r.manifest,
    ok: summarize(r.diagnostics).errors === 0,
    summary: summarize(r.diagnostics),
    diagnostics: r.diagnostics.map((d) => {
      const rule = RULES.find((x) => x.code === d.code);
      const docs = ruleDoc(d.code);
      return { ...reported(d), ...(rule ? { rule: rule.name } : d.code === CONFIG_CODE ? { rule: 'lint-config' } : {}), ...(docs ? { docs } : {}) };
    }),
  }));
  return JSON.stringify({ ok: summarize(all).errors === 0, summary: summarize(all), manifests }, null, 2);
}
