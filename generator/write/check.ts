/** Compares the output on disk with what would be generated; writes nothing. */
import type { WritePlan } from './plan.js';

/** One difference between disk and the generator's output. */
export type Drift =
  | { readonly kind: 'stale'; readonly path: string; readonly diff: string }
  | { readonly kind: 'missing'; readonly path: string }
  | { readonly kind: 'unexpected'; readonly path: string };

/** A short excerpt around the first differing line of two texts. */
export function shortDiff(before: string, after: string, context = 2, max = 6): string {
  const a = before.split('\n');
  const b = after.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length - 1;
  let endB = b.length - 1;
  while (endA >= start && endB >= start && a[endA] === b[endB]) {
    endA--;
    endB--;
  }
  const lines: string[] = [`@@ line ${start + 1} @@`];
  for (let i = Math.max(0, start - context); i < start; i++) lines.push(`  ${a[i]}`);
  const removed = a.slice(start, endA + 1);
  const added = b.slice(start, endB + 1);
  for (const l of removed.slice(0, max)) lines.push(`- ${l}`);
  if (removed.length > max) lines.push(`- … ${removed.length - max} more`);
  for (const l of added.slice(0, max)) lines.push(`+ ${l}`);
  if (added.length > max) lines.push(`+ … ${added.length - max} more`);
  return lines.join('\n');
}

/** The drift a plan reveals: every file a generate run would write or remove. */
export function findDrift(plan: WritePlan): Drift[] {
  const out: Drift[] = [];
  for (const a of plan.actions) {
    if (a.kind === 'write' && (a.reason === 'new' || a.reason === 'moved')) out.push({ kind: 'missing', path: a.path });
    else if (a.kind === 'write') out.push({ kind: 'stale', path: a.path, diff: shortDiff(plan.before.get(a.path) ?? '', a.content) });
    else if (a.kind === 'remove') out.push({ kind: 'unexpected', path: a.path });
  }
  for (const n of plan.notes) if (n.level === 'conflict') out.push({ kind: 'stale', path: n.path, diff: `(${n.message})` });
  return out;
}
