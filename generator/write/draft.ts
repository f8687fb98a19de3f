/**
 * Writes a manifest draft (from `mcp-gen import`): staged next to its target so it can be linted
 * where it will live, then moved into place atomically; an existing file is never replaced unless forced.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { UserError } from '../diagnostics.js';

/** Refuses early when `path` exists and replacing it was not asked for. */
export function assertWritable(path: string, force: boolean): void {
  if (existsSync(path) && !force) throw new UserError(`${path} exists; it is kept. Choose another --out, or add --force to replace it.`);
}

/** Writes `text` to a staging file beside `path` and returns the staging file's path. */
export async function stageDraft(path: string, text: string): Promise<string> {
  await mkdir(dirname(path), { recursive: true });
  const staged = `${path}.${process.pid}.draft.yaml`;
  await writeFile(staged, text, 'utf8');
  return staged;
}

/** Moves a staged draft onto `path` (checked with `assertWritable` first). */
export async function commitDraft(staged: string, path: string, force: boolean): Promise<void> {
  assertWritable(path, force);
  await rename(staged, path);
}

/** Removes a staged draft that will not be used. */
export async function discardDraft(staged: string): Promise<void> {
  await rm(staged, { force: true });
}

/**
 * Writes a draft's files under `dir` (relative paths → text). A file whose content is already the
 * same is left alone, so importing an unchanged server twice touches nothing; any other existing file
 * is kept (UserError, nothing written) unless `force`.
 */
export async function writeDraftFiles(dir: string, files: ReadonlyMap<string, string>, force: boolean): Promise<string[]> {
  const changed: string[] = [];
  for (const [rel, text] of files) {
    const path = join(dir, rel);
    const current = existsSync(path) ? await readFile(path, 'utf8') : undefined;
    if (current === text) continue;
    if (current !== undefined && !force) throw new UserError(`${path} exists and differs; it is kept and nothing was written. Add --force to replace it.`);
    changed.push(rel);
  }
  for (const rel of changed) {
    const path = join(dir, rel);
    await mkdir(dirname(path), { recursive: true });
    const tmp = `${path}.${process.pid}.tmp`;
    await writeFile(tmp, files.get(rel)!, 'utf8');
    await rename(tmp, path);
  }
  return changed;
}

/** A fresh scratch folder for a draft that is linted before it is written where the user asked. */
export async function scratchFolder(): Promise<{ readonly dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-gen-import-'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
