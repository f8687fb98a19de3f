/**
 * All-or-nothing writes. A run first writes every new file completely into a
 * staging folder, then commits by atomically writing a journal of the moves
 * and removals, then applies the journal. A run killed before the commit
 * leaves the previous output untouched (the staging folder is discarded); one
 * killed after it is completed by `recover()` at the start of the next run.
 *
 * Each file a move replaces, and each file removed, first gets a second name in the staging folder, so
 * the move itself never frees the old file's blocks: on a disk mounted with `discard` that freeing is most
 * of a rename's cost (about 1 ms per MB replaced). The old copies are removed afterwards on libuv's
 * threads (`Committed.settled`), while the run records what it wrote.
 */
import { createHash } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, renameSync, rmdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { rm, rmdir, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type Content, writeContent } from './parts.js';

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
function fileHash(path: string): string | null {
  try {
    return createHash('sha256').update(readFileSync(path)).digest('hex');
  } catch {
    return null;
  }
}

/** sha256 of a text as a file would hold it (`undefined`: the file is absent). */
export function textHash(text: string | undefined): string | null {
  return text === undefined ? null : createHash('sha256').update(text, 'utf8').digest('hex');
}


/** True when an interrupted run left a committed journal behind. */
export async function hasPendingJournal(outDir: string): Promise<boolean> {
  return existsSync(join(outDir, JOURNAL_FILE));
}

/** Gives `target` a second name in the staging folder (`linkAside`): the name, or undefined when it has none. */
type Aside = (target: string) => string | undefined;

/**
 * Gives `target` the second name `name` (a hard link), so that replacing or removing it does not free its
 * blocks; false when it has none (absent, or a file system without hard links).
 */
export function linkAside(target: string, name: string): boolean {
  try {
    linkSync(target, name);
    return true;
  } catch {
    return false;
  }
}

/** Applies the journal; when `recovering`, skips steps whose target changed since the run planned them. */
function apply(outDir: string, ops: readonly JournalOp[], recovering = false, aside?: Aside): string[] {
  const skipped: string[] = [];
  for (const o of ops) {
    const target = join(outDir, o.op === 'move' ? o.to : o.path);
    if (o.op === 'move') {
      const from = join(outDir, o.from);
      if (!existsSync(from)) continue; // already moved before an interruption
      if (recovering && o.expect !== undefined && fileHash(target) !== o.expect) {
        skipped.push(o.to);
        continue;
      }
      const to = target;
      mkdirSync(dirname(to), { recursive: true });
      aside?.(to);
      renameSync(from, to);
    } else {
      if (recovering && o.expect !== undefined) {
        const now = fileHash(target);
        if (now === null) continue;
        if (now !== o.expect) {
          skipped.push(o.path);
          continue;
        }
      }
      if (aside?.(target) !== undefined) {
        unlinkSync(target);
        continue;
      }
      try {
        unlinkSync(target);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      }
    }
  }
  return skipped;
}

/** Completes a committed but interrupted run, and discards an uncommitted one. */
export async function recover(outDir: string): Promise<'none' | 'completed' | 'discarded'> {
  const journal = join(outDir, JOURNAL_FILE);
  let outcome: 'none' | 'completed' | 'discarded' = 'none';
  if (existsSync(journal)) {
    const ops = JSON.parse(readFileSync(journal, 'utf8')) as JournalOp[];
    // Files changed after the interruption (an author's edit) are kept; the next plan sees them as they are.
    apply(outDir, ops, true);
    unlinkSync(journal);
    outcome = 'completed';
  }
  const staging = join(outDir, STAGING_DIR);
  if (existsSync(staging)) {
    outcome = outcome === 'none' ? 'discarded' : outcome;
    rmSync(staging, { recursive: true, force: true });
  }
  return outcome;
}

/** What `commit` leaves to finish once its files are in place. */
export interface Committed {
  /**
   * Settles once the old copies of the replaced and removed files and the staging folder are gone (a
   * failure rejects it; the next run's recovery discards a staging folder left behind).
   */
  readonly settled: Promise<void>;
}

/** Removes the old copies of replaced and removed files (given their paths in the staging folder). */
export type Release = (paths: readonly string[]) => Promise<unknown>;

const unlinkAll: Release = (paths) => Promise.all(paths.map((path) => unlink(path)));

/**
 * Writes `files` and removes `removals` (paths relative to `outDir`) as one all-or-nothing step. `expect`
 * is each target's sha256 (hex) as the caller found it, null when it found none (see `textHash`). The
 * files are in place when it resolves; the caller awaits `settled` before it finishes.
 */
export async function commit(
  outDir: string,
  files: readonly { path: string; content: Content; expect: string | null }[],
  removals: readonly { path: string; expect: string | null }[],
  release: Release = unlinkAll,
): Promise<Committed> {
  if (files.length === 0 && removals.length === 0) return { settled: Promise.resolve() };
  const staging = join(outDir, STAGING_DIR);
  freshStaging(staging);
  const ops: JournalOp[] = files.map((f, i) => ({ op: 'move', from: `${STAGING_DIR}/${i}`, to: f.path, expect: f.expect }));
  // Every write ends before the first failure is thrown: none is left writing into a folder the next run makes afresh.
  const written = await Promise.allSettled(files.map((f, i) => writeContent(join(outDir, `${STAGING_DIR}/${i}`), f.content)));
  for (const w of written) if (w.status === 'rejected') throw w.reason;
  for (const r of removals) ops.push({ op: 'remove', path: r.path, expect: r.expect });
  const pending = join(staging, 'journal');
  writeFileSync(pending, JSON.stringify(ops), 'utf8');
  renameSync(pending, join(outDir, JOURNAL_FILE)); // the commit point
  const old: string[] = [];
  apply(outDir, ops, false, (target) => {
    const name = join(staging, `old-${old.length}`);
    return linkAside(target, name) ? (old.push(name), name) : undefined;
  });
  unlinkSync(join(outDir, JOURNAL_FILE));
  // Every staged file was moved out and the journal renamed out: the folder holds the old copies only.
  if (old.length === 0) {
    removeStaging(staging);
    return { settled: Promise.resolve() };
  }
  const settled = release(old)
    .then(() => rmdir(staging))
    .catch(() => rm(staging, { recursive: true, force: true }));
  return { settled };
}

/**
 * Makes the staging folder, empty. `recover` removed any an interrupted run left, so it is made as it is
 * (the removal of a folder that is not there still loads Node's recursive removal); one found all the
 * same is removed whole first.
 */
function freshStaging(staging: string): void {
  try {
    mkdirSync(staging);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') rmSync(staging, { recursive: true, force: true });
    else if (code !== 'ENOENT') throw e; // ENOENT: a first run, whose output folder is made with it
    mkdirSync(staging, { recursive: true });
  }
}

/**
 * Removes the staging folder: as the empty folder it is after a commit (without loading Node's recursive
 * removal, which only a changed run would), else whole.
 */
function removeStaging(staging: string): void {
  try {
    rmdirSync(staging);
  } catch {
    rmSync(staging, { recursive: true, force: true });
  }
}
