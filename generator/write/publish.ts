/**
 * Writes the publishing files (`server.json`, `manifest.json`) into a project folder: every file is
 * written beside its target first and renamed into place only when all were written, so a failed run
 * leaves the previous files as they were.
 */
import { rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Writes `files` (paths relative to `dir`) all or none. */
export async function writePublishFiles(dir: string, files: readonly { path: string; content: string }[]): Promise<void> {
  const staged: { tmp: string; target: string }[] = [];
  try {
    for (const f of files) {
      const target = join(dir, f.path);
      const tmp = `${target}.mcp-gen-${process.pid}.tmp`;
      staged.push({ tmp, target });
      await writeFile(tmp, f.content, 'utf8');
    }
  } catch (e) {
    await Promise.all(staged.map((s) => rm(s.tmp, { force: true })));
    throw e;
  }
  for (const s of staged) await rename(s.tmp, s.target);
}
