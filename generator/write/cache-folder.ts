/**
 * The folder where a run keeps what the next run of the same manifest reuses: the no-op fast path's entry
 * (`fastpath.ts`) and the incremental cache (`cache-store.ts`), one file each per manifest and `--out`
 * folder, named by a hash of both absolute paths. In order:
 *
 * 1. `MCP_GEN_CACHE_DIR`, when set (`off` keeps nothing, as `--no-cache` does for the incremental cache);
 * 2. `node_modules/.cache/mcp-gen` of the project: the nearest folder, from the working directory up, that
 *    has a `node_modules` folder (never committed, removed with node_modules);
 * 3. outside any project (say, `npx mcp-gen` in a folder with no node_modules above it), the user's cache
 *    folder: `$XDG_CACHE_HOME/mcp-gen`, else `~/.cache/mcp-gen`. Shared by every manifest the user
 *    generates, it keeps only the {@link SHARED_KEEP} files most recently written (`trimFolder`).
 *
 * A run writes each file staged beside it (`<file>.<pid>.tmp`, and `<file>.<pid>.old` for the one it
 * replaces) and renames it; a run that dies in between leaves its staged file behind, which a later run
 * removes from any of these folders once it has not changed for {@link ABANDONED_MS} and its process is gone.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';

/** The environment variable naming the cache folder (`off`: none). */
export const CACHE_DIR_ENV = 'MCP_GEN_CACHE_DIR';

/** How many files the user's cache folder keeps (two per manifest and output folder). */
export const SHARED_KEEP = 64;

/** How long ago a staged file of a run that is no longer running must have changed for a later run to remove it. */
export const ABANDONED_MS = 60 * 60 * 1000;

/** A file a run stages beside a cache file: `<key>.<kind>.<pid>.tmp` or `.old` (fastpath.ts, cache-store.ts). */
const STAGED = /^[0-9a-f]{32}\.(?:json|incremental)\.(\d+)\.(?:tmp|old)$/;

/** Where the cache files go, and whether the folder is the user's, kept to {@link SHARED_KEEP} files. */
export interface CacheFolder {
  readonly dir: string;
  readonly bounded: boolean;
}

type Env = Readonly<Record<string, string | undefined>>;

/** The cache folder for runs started in `cwd`, or undefined when none is kept (see the module's doc). */
export function cacheFolder(cwd: string, env: Env = process.env, home: () => string = homedir): CacheFolder | undefined {
  const named = env[CACHE_DIR_ENV]?.trim();
  if (named !== undefined && named !== '') return named.toLowerCase() === 'off' ? undefined : { dir: resolve(cwd, named), bounded: false };
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules'))) return { dir: join(dir, 'node_modules', '.cache', 'mcp-gen'), bounded: false };
    if (dirname(dir) === dir) break;
  }
  const xdg = env['XDG_CACHE_HOME']?.trim();
  if (xdg !== undefined && isAbsolute(xdg)) return { dir: join(xdg, 'mcp-gen'), bounded: true };
  let user: string;
  try {
    user = home();
  } catch {
    return undefined;
  }
  return user === '' ? undefined : { dir: join(user, '.cache', 'mcp-gen'), bounded: true };
}

/**
 * The file of kind `extension` (`json`: the no-op entry; `incremental`: the cache) that runs started in
 * `cwd` keep for `manifest` generated to `outOption` (as given, or undefined for the default), with its
 * folder; undefined when no cache folder is kept.
 */
export function cacheFileOf(cwd: string, manifest: string, outOption: string | undefined, extension: 'json' | 'incremental'): { readonly path: string; readonly folder: CacheFolder } | undefined {
  const folder = cacheFolder(cwd);
  if (folder === undefined) return undefined;
  const key = createHash('sha256').update(`${resolve(cwd, manifest)}\0${outOption === undefined ? '' : resolve(cwd, outOption)}`).digest('hex').slice(0, 32);
  return { path: join(folder.dir, `${key}.${extension}`), folder };
}

/** Whether process `pid` runs (one this process may not signal is taken as running). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Unlinks `path`, unless another run removed it meanwhile. */
function remove(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Removed by another run meanwhile.
  }
}

/**
 * Tidies a cache folder after a run wrote to it: removes the staged files of runs that died before renaming
 * them (unchanged for {@link ABANDONED_MS}, their process gone; a process id another system reuses keeps
 * its file), and keeps the user's folder to the {@link SHARED_KEEP} cache files most recently written. A file
 * another run removes meanwhile is skipped; a run whose file was removed starts afresh. The other cache
 * files of a project's folder, or of one `MCP_GEN_CACHE_DIR` names, are left as they are.
 */
export function trimFolder(folder: CacheFolder, keep: number = SHARED_KEEP, now: number = Date.now()): void {
  let names: string[];
  try {
    names = readdirSync(folder.dir);
  } catch {
    return;
  }
  const cached: string[] = [];
  for (const n of names) {
    const staged = STAGED.exec(n);
    if (staged !== null) {
      const path = join(folder.dir, n);
      const s = statSync(path, { throwIfNoEntry: false });
      // Aged by the inode's change time: a `.old` file is a link to the cache file it replaces, whose
      // modification time may be days old while the run that linked it is still running.
      if (s !== undefined && now - s.ctimeMs >= ABANDONED_MS && !running(Number(staged[1]))) remove(path);
    } else if (folder.bounded && (n.endsWith('.json') || n.endsWith('.incremental'))) cached.push(n);
  }
  if (cached.length <= keep) return;
  const dated: { path: string; mtimeMs: number }[] = [];
  for (const n of cached) {
    const path = join(folder.dir, n);
    const s = statSync(path, { throwIfNoEntry: false });
    if (s !== undefined) dated.push({ path, mtimeMs: s.mtimeMs });
  }
  dated.sort((a, b) => b.mtimeMs - a.mtimeMs);
  for (const { path } of dated.slice(keep)) remove(path);
}
