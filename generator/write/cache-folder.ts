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
 *    generates, it keeps only the {@link SHARED_KEEP} files most recently written (`trimShared`).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';

/** The environment variable naming the cache folder (`off`: none). */
export const CACHE_DIR_ENV = 'MCP_GEN_CACHE_DIR';

/** How many files the user's cache folder keeps (two per manifest and output folder). */
export const SHARED_KEEP = 64;

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

/**
 * Keeps the {@link SHARED_KEEP} files of the user's cache folder most recently written and removes the
 * rest (a file another run removes meanwhile is skipped; a run whose file was removed starts afresh). A
 * project's folder, or one `MCP_GEN_CACHE_DIR` names, is left as it is.
 */
export function trimShared(folder: CacheFolder, keep: number = SHARED_KEEP): void {
  if (!folder.bounded) return;
  let names: string[];
  try {
    names = readdirSync(folder.dir).filter((n) => n.endsWith('.json') || n.endsWith('.incremental'));
  } catch {
    return;
  }
  if (names.length <= keep) return;
  const dated: { path: string; mtimeMs: number }[] = [];
  for (const n of names) {
    const path = join(folder.dir, n);
    const s = statSync(path, { throwIfNoEntry: false });
    if (s !== undefined) dated.push({ path, mtimeMs: s.mtimeMs });
  }
  dated.sort((a, b) => b.mtimeMs - a.mtimeMs);
  for (const { path } of dated.slice(keep)) {
    try {
      unlinkSync(path);
    } catch {
      // Removed by another run meanwhile.
    }
  }
}
