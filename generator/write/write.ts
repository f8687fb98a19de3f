/**
 * Applies a write plan. Every new file is first written completely to a
 * staging folder next to the output, then renamed into place, so a failed or
 * killed run never leaves a half-written file; unchanged files are not touched.
 */
import { mkdir, mkdtemp, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { safeJoin, type WritePlan } from './plan.js';

/** What a run changed, by relative path. */
export interface WriteReport {
  readonly written: readonly string[];
  readonly created: readonly string[];
  readonly removed: readonly string[];
  readonly unchanged: number;
}

/** Writes the plan's files atomically (per file) and removes stale generated files. */
export async function writeFiles(plan: WritePlan): Promise<WriteReport> {
  const writes = plan.actions.filter((a) => a.kind === 'write');
  const removes = plan.actions.filter((a) => a.kind === 'remove');
  const report = {
    written: writes.filter((a) => a.reason === 'changed').map((a) => a.file.path),
    created: writes.filter((a) => a.reason === 'new').map((a) => a.file.path),
    removed: removes.map((a) => a.path),
    unchanged: plan.actions.filter((a) => a.kind === 'keep').length,
  };
  if (writes.length === 0 && removes.length === 0) return report;
  await mkdir(dirname(plan.outDir), { recursive: true });
  const staging = await mkdtemp(join(dirname(plan.outDir), '.mcp-gen-staging-'));
  try {
    const staged: [string, string][] = [];
    for (const [i, action] of writes.entries()) {
      const tmp = join(staging, String(i));
      await writeFile(tmp, action.file.content, 'utf8');
      staged.push([tmp, safeJoin(plan.outDir, action.file.path)]);
    }
    for (const [tmp, target] of staged) {
      await mkdir(dirname(target), { recursive: true });
      await rename(tmp, target);
    }
    for (const r of removes) await unlink(safeJoin(plan.outDir, r.path));
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return report;
}
