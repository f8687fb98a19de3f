/** Turning a diff into text for people and JSON for machines; prints nothing itself. */
import type { Change, ChangeKind, DiffResult } from './types.js';

/** What the CLI needs to describe a diff: the result and where the baseline came from. */
export interface DiffReport extends DiffResult {
  /** Where the baseline lock was read (`generated/x/mcp.lock.json`, `origin/main:…`). */
  readonly baseline: string;
  /** The manifest compared with it. */
  readonly manifest: string;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** One line per change: `BREAKING tool issues.create: input property labels removed`. */
export function formatChange(c: Change): string {
  return `${c.severity === 'breaking' ? 'BREAKING' : 'compatible'} ${c.kind} ${c.name}: ${c.detail}`;
}

/** The summary line, then breaking changes, then compatible ones, each group in kind and name order. */
export function formatDiff(r: DiffReport): string {
  const head = r.breaking.length + r.compatible.length === 0
    ? `${r.manifest} vs ${r.baseline}: no changes.`
    : `${r.manifest} vs ${r.baseline}: ${plural(r.breaking.length, 'breaking change')}, ${plural(r.compatible.length, 'compatible change')}.`;
  const lines = [head];
  if (r.breaking.length > 0) lines.push('', ...r.breaking.map(formatChange));
  if (r.compatible.length > 0) lines.push('', ...r.compatible.map(formatChange));
  return lines.join('\n');
}

/** A change as `--json` prints it. */
export interface JsonChange {
  readonly kind: ChangeKind;
  readonly name: string;
  readonly path: string;
  readonly change: string;
  readonly detail: string;
}

/** The `--json` document: `{breaking: [...], compatible: [...]}`. */
export function diffJson(r: DiffResult): { breaking: JsonChange[]; compatible: JsonChange[] } {
  const strip = ({ kind, name, path, change, detail }: Change): JsonChange => ({ kind, name, path, change, detail });
  return { breaking: r.breaking.map(strip), compatible: r.compatible.map(strip) };
}
