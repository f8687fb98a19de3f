/** Writes a manifest draft (from `mcp-gen import`): atomically, and never over an existing file unless forced. */
import { existsSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { UserError } from '../diagnostics.js';

/** Writes `text` to `path`; an existing file is kept (UserError) unless `force`. */
export async function writeDraft(path: string, text: string, force: boolean): Promise<void> {
  if (existsSync(path) && !force) throw new UserError(`${path} exists; it is kept. Choose another --out, or add --force to replace it.`);
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, text, 'utf8');
  await rename(tmp, path);
}
