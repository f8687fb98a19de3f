/** Snapshots of folders on disk, for asserting what a run wrote (or did not write). */
import { mkdtemp, readdir, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';

/** One file of a snapshot: its bytes and modification time. */
export interface FileState {
  readonly content: string;
  readonly mtimeMs: number;
  /** The inode: an atomic rewrite (write elsewhere, rename into place) changes it even within one clock tick. */
  readonly ino: number;
}

/** Every file under `dir` by relative `/` path (sorted); empty when `dir` does not exist. */
export async function snapshotTree(dir: string): Promise<Map<string, FileState>> {
  const out = new Map<string, FileState>();
  const walk = async (d: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(d, { withFileTypes: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw e;
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = join(d, e.name);
      if (e.isDirectory()) await walk(full);
      else {
        const [content, info] = await Promise.all([readFile(full, 'latin1'), stat(full)]);
        out.set(relative(dir, full).split(sep).join('/'), { content, mtimeMs: info.mtimeMs, ino: info.ino });
      }
    }
  };
  await walk(dir);
  return out;
}

/** The contents of a snapshot only (`path → bytes`), for byte-for-byte comparisons. */
export function contentsOf(tree: ReadonlyMap<string, FileState>): Record<string, string> {
  return Object.fromEntries([...tree].map(([p, f]) => [p, f.content]));
}

/** A fresh folder under the system temp dir. */
export function tempDir(prefix = 'mcp-gen-test-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}
