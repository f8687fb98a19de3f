/**
 * Writes a manifest draft (from `mcp-gen import`): staged next to its target so it can be linted
 * where it will live, then moved into place atomically; an existing file is never replaced unless forced.
 */
import { existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
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
