/**
 * All-or-nothing writes. A run first writes every new file completely into a
 * staging folder, then commits by atomically writing a journal of the moves
 * and removals, then applies the journal. A run killed before the commit
 * leaves the previous output untouched (the staging folder is discarded); one
 * killed after it is completed by `recover()` at the start of the next run.
 */
import { createHash } from 'node:crypto';
import { access, mkdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export const STAGING_DIR = '.mcp-gen-staging';
export const JOURNAL_FILE = '.mcp-gen-journal.json';

/**
 * One step of a committed run. `expect` is the sha256 of the target as the run found it (`null`: absent),
 * so a recovery never replaces a file someone changed after the run was interrupted.
 */
export type JournalOp =
  | { readonly op: 'move'; readonly from: string; readonly to: string; readonly expect?: string | null }
  | { readonly op: 'remove'; readonly path: string; readonly expect?: string | null };

/** sha256 of a file's bytes, or null when it does not exist. */
async function fileHash(path: string): Promise<string | null> {
  try {
    return createHash('sha256').update(await readFile(path)).digest('hex');
  } catch {
    return null;
  }
}

/** sha256 of a text as a file would hold it (`undefined`: the file is absent). */
export function textHash(text: string | undefined): string | null {
  return text === undefined ? null : createHash('sha256').update(text, 'utf8').digest('hex');
}

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

/** Applies the journal; when `recovering`, skips steps whose target changed since the run planned them. */
async function apply(outDir: string, ops: readonly JournalOp[], recovering = false): Promise<string[]> {
  const skipped: string[] = [];
  for (const o of ops) {
    const target = join(outDir, o.op === 'move' ? o.to : o.path);
    if (o.op === 'move') {
      const from = join(outDir, o.from);
      if (!(await exists(from))) continue; // already moved before an interruption
      if (recovering && o.expect !== undefined && (await fileHash(target)) !== o.expect) {
        skipped.push(o.to);
        continue;
      }
      const to = target;
      await mkdir(dirname(to), { recursive: true });
      await rename(from, to);
    } else {
      if (recovering && o.expect !== undefined) {
        const now = await fileHash(target);
        if (now === null) continue;
        if (now !== o.expect) {
          skipped.push(o.path);
          continue;
        }
      }
      await unlink(target).catch((e: NodeJS.ErrnoException) => {
        if (e.code !== 'ENOENT') throw e;
      });
    }
  }
  return skipped;
}

/** Completes a committed but interrupted run, and discards an uncommitted one. */
export async function recover(outDir: string): Promise<'none' | 'completed' | 'discarded'> {
  const journal = join(outDir, JOURNAL_FILE);
  let outcome: 'none' | 'completed' | 'discarded' = 'none';
  if (await exists(journal)) {
    const ops = JSON.parse(await readFile(journal, 'utf8')) as JournalOp[];
    // Files changed after the interruption (an author's edit) are kept; the next plan sees them as they are.
    await apply(outDir, ops, true);
    await unlink(journal);
    outcome = 'completed';
  }
  const staging = join(outDir, STAGING_DIR);
  if (await exists(staging)) outcome = outcome === 'none' ? 'discarded' : outcome;
  await rm(staging, { recursive: true, force: true });
  return outcome;
}

/** Writes `files` and removes `removals` (paths relative to `outDir`) as one all-or-nothing step. */
export async function commit(
  outDir: string,
  files: readonly { path: string; content: string; before?: string | undefined }[],
  removals: readonly { path: string; before?: string | undefined }[],
): Promise<void> {
  if (files.length === 0 && removals.length === 0) return;
  const staging = join(outDir, STAGING_DIR);
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  const ops: JournalOp[] = [];
  for (const [i, f] of files.entries()) {
    const name = `${STAGING_DIR}/${i}`;
    await writeFile(join(outDir, name), f.content, 'utf8');
    ops.push({ op: 'move', from: name, to: f.path, expect: textHash(f.before) });
  }
  for (const r of removals) ops.push({ op: 'remove', path: r.path, expect: textHash(r.before) });
  const pending = join(staging, 'journal');
  await writeFile(pending, JSON.stringify(ops), 'utf8');
  await rename(pending, join(outDir, JOURNAL_FILE)); // the commit point
  await apply(outDir, ops);
  await unlink(join(outDir, JOURNAL_FILE));
  await rm(staging, { recursive: true, force: true });
}
