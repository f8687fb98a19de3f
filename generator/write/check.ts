/** Compares the output on disk with what would be generated; writes nothing. */
import type { WritePlan } from './plan.js';
import { lockSummary, unifiedDiff } from './unified-diff.js';
import { whole } from './parts.js';

/** One difference between disk and the generator's output. */
export type Drift =
  | { readonly kind: 'stale'; readonly path: string; readonly diff: string }
  | { readonly kind: 'missing'; readonly path: string }
  | { readonly kind: 'unexpected'; readonly path: string };

/** The drift a plan reveals: every file a generate run would write or remove. */
export function findDrift(plan: WritePlan): Drift[] {
  const out: Drift[] = [];
  for (const a of plan.actions) {
    if (a.kind === 'write' && (a.reason === 'new' || a.reason === 'moved')) out.push({ kind: 'missing', path: a.path });
    else if (a.kind === 'write') {
      const before = plan.before.get(a.path) ?? '';
      const content = whole(a.content);
      const after = typeof content === 'string' ? content : Buffer.from(content).toString('utf8');
      out.push({ kind: 'stale', path: a.path, diff: /(^|\/)mcp\.lock\.json$/.test(a.path) ? lockSummary(before, after) : unifiedDiff(before, after) });
    }
    else if (a.kind === 'remove') out.push({ kind: 'unexpected', path: a.path });
  }
  for (const n of plan.notes) if (n.level === 'conflict') out.push({ kind: 'stale', path: n.path, diff: `(${n.message})` });
  return out;
}
