/** Applies a write plan as one all-or-nothing step (see `journal.ts`). */
import { commit, textHash } from './journal.js';
import { safeJoin, type WritePlan } from './plan.js';

/** What a run changed, by relative path. */
export interface WriteReport {
  readonly created: readonly string[];
  readonly written: readonly string[];
  readonly edited: readonly string[];
  readonly removed: readonly string[];
  readonly unchanged: number;
}

/** What `writeFiles` did, and what it leaves to finish (see `Committed.settled`). */
export interface Written {
  readonly report: WriteReport;
  readonly settled: Promise<void>;
}

/**
 * Writes the plan's files and removes stale generated files; unchanged files are not touched. The files
 * are in place when it resolves; the caller awaits `settled` before it finishes.
 */
export async function writeFiles(plan: WritePlan): Promise<Written> {
  const writes = plan.actions.filter((a) => a.kind === 'write');
  const removes = plan.actions.filter((a) => a.kind === 'remove');
  for (const a of [...writes, ...removes]) safeJoin(plan.outDir, a.path);
  // The journal's expectation of each target: the hash the plan found, else the text it read (absent: null).
  const expect = (rel: string) => {
    const found = plan.found.get(rel);
    return found !== undefined ? found.slice('sha256:'.length) : textHash(plan.before.get(rel));
  };
  const { settled } = await commit(
    plan.outDir,
    writes.map((a) => ({ path: a.path, content: a.content, expect: expect(a.path) })),
    removes.map((a) => ({ path: a.path, expect: expect(a.path) })),
  );
  const report = {
    created: writes.filter((a) => a.reason === 'new' || a.reason === 'moved').map((a) => a.path),
    written: writes.filter((a) => a.reason === 'changed').map((a) => a.path),
    edited: writes.filter((a) => a.reason === 'edited').map((a) => a.path),
    removed: removes.map((a) => a.path),
    unchanged: plan.actions.filter((a) => a.kind === 'keep').length,
  };
  return { report, settled };
}
