/** The import's summary: where every operation went, and the draft's lint findings by rule. */
import type { Diagnostic } from '../../diagnostics.js';
import type { ImportedOperation } from './build.js';

/** Counts for the command line and `--json`. */
export interface ImportSummary {
  readonly operations: number;
  readonly tools: number;
  readonly resources: number;
  readonly prompts: number;
  readonly excluded: readonly { readonly operation: string; readonly reason: string }[];
  readonly flagged: readonly { readonly operation: string; readonly reason: string }[];
  /** Lint code → number of findings in the draft. */
  readonly lint: Readonly<Record<string, number>>;
}

/** Summarizes the operations and the draft's diagnostics. */
export function summarize(ops: readonly ImportedOperation[], diagnostics: readonly Diagnostic[]): ImportSummary {
  const lint: Record<string, number> = {};
  for (const d of diagnostics) lint[d.code] = (lint[d.code] ?? 0) + 1;
  const left = (kind: 'excluded' | 'flagged') => ops.filter((o) => o.decision.kind === kind).map((o) => ({ operation: `${o.method} ${o.path}`, reason: o.note ?? '' }));
  return {
    operations: ops.length,
    tools: ops.filter((o) => o.tool !== undefined).length,
    resources: ops.filter((o) => o.resource !== undefined).length,
    prompts: 0,
    excluded: left('excluded'),
    flagged: left('flagged'),
    lint: Object.fromEntries(Object.entries(lint).sort(([a], [b]) => (a < b ? -1 : 1))),
  };
}

/** The summary as lines of text (the CLI prints them). */
export function summaryLines(s: ImportSummary): string[] {
  const lines = [`${s.operations} operations → ${s.tools} tools, ${s.resources} resource templates, ${s.prompts} prompts; ${s.excluded.length} excluded, ${s.flagged.length} flagged`];
  for (const f of s.flagged) lines.push(`  flagged ${f.operation}: ${f.reason}`);
  for (const e of s.excluded) lines.push(`  excluded ${e.operation}: ${e.reason}`);
  const rules = Object.entries(s.lint);
  lines.push(rules.length ? `lint on the draft: ${rules.map(([c, n]) => `${c} ×${n}`).join(', ')} (run \`mcp-gen lint\` for details)` : 'lint on the draft: no findings');
  return lines;
}
