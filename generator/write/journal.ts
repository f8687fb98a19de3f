/**
 * All-or-nothing writes. A run first writes every new file completely into a
 * staging folder, then commits by atomically writing a journal of the moves
 * and removals, then applies the journal. A run killed before the commit
 * leaves the previous output untouched (the staging folder is discarded); one
 * killed after it is completed by `recover()` at the start of the next run.
 */
import { access, mkdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export const STAGING_DIR = '.mcp-gen-staging';
export const JOURNAL_FILE = '.mcp-gen-journal.json';

/** One step of a committed run. */
export type JournalOp = { readonly op: 'move'; readonly from: string; readonly to: string } | { readonly op: 'remove'; readonly path: string };

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

/** True when an interrupted run left a committed journal behind. */
export async function hasPendingJournal(outDir: string): Promise<boolean> {
  return exists(join(outDir, JOURNAL_FILE));
}

async function apply(outDir: string, ops: readonly JournalOp[]): Promise<void> {
  for (const o of ops) {
    if (o.op === 'move') {
      const from = join(outDir, o.from);
      if (!(await exists(from))) continue; // already moved before an interruption
      const to = join(outDir, o.to);
      await mkdir(dirname(to), { recursive: true });
      await rename(from, to);
    } else {
      await unlink(join(outDir, o.path)).catch((e: NodeJS.ErrnoException) => {
        if (e.code !== 'ENOENT') throw e;
      });
    }
  }
}

/** Completes a committed but interrupted run, and discards an uncommitted one. */
export async function recover(outDir: string): Promise<'none' | 'completed' | 'discarded'> {
  const journal = join(outDir, JOURNAL_FILE);
  let outcome: 'none' | 'completed' | 'discarded' = 'none';
  if (await exists(journal)) {
    const ops = JSON.parse(await readFile(journal, 'utf8')) as JournalOp[];
    await apply(outDir, ops);
    await unlink(journal);
    outcome = 'completed';
  }
  const staging = join(outDir, STAGING_DIR);
  if (await exists(staging)) outcome = outcome === 'none' ? 'discarded' : outcome;
  await rm(staging, { recursive: true, force: true });
  return outcome;
}

/** Writes `files` and removes `removals` (paths relative to `outDir`) as one all-or-nothing step. */
export async function commit(outDir: string, files: readonly { path: string; content: string }[], removals: readonly string[]): Promise<void> {
  if (files.length === 0 && removals.length === 0) return;
  const staging = join(outDir, STAGING_DIR);
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  const ops: JournalOp[] = [];
  for (const [i, f] of files.entries()) {
    const name = `${STAGING_DIR}/${i}`;
    await writeFile(join(outDir, name), f.content, 'utf8');
    ops.push({ op: 'move', from: name, to: f.path });
  }
  for (const path of removals) ops.push({ op: 'remove', path });
  const pending = join(staging, 'journal');
  await writeFile(pending, JSON.stringify(ops), 'utf8');
  await rename(pending, join(outDir, JOURNAL_FILE)); // the commit point
  await apply(outDir, ops);
  await unlink(join(outDir, JOURNAL_FILE));
  await rm(staging, { recursive: true, force: true });
}
