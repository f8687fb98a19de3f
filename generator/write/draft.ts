/** Writes a manifest draft (from `mcp-gen import`): atomically, and never over an existing file unless forced. */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { UserError } from '../diagnostics.js';

/** Writes `text` to `path`; an existing file is kept (UserError) unless `force`. */
export async function writeDraft(path: string, text: string, force: boolean): Promise<void> {
  if (existsSync(path) && !force) throw new UserError(`${path} exists; it is kept. Choose another --out, or add --force to replace it.`);
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, text, 'utf8');
  await rename(tmp, path);
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
