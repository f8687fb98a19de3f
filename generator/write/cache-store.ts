/**
 * Where the incremental-generation cache (`generator/cache.ts`) lives between runs: one file per manifest
 * and output folder, next to the no-op fast path's entry in the cache folder (`cache-folder.ts`: the
 * project's `node_modules/.cache/mcp-gen/`, else the user's; removing the folder clears it). Without a
 * cache folder, or without a build id, runs simply start from an empty cache.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, sep } from 'node:path';
import { unlink } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { GenerationCache, type DiskRecord, type FileTexts, specHash, type Stamp } from '../cache.js';
import type { WritePlan } from './plan.js';
import type { EmittedFile } from '../emit/context.js';
import { cacheFileOf } from './cache-folder.js';
import { linkAside } from './journal.js';
import { writeContent } from './parts.js';

/**
 * The libraries whose output the cache keeps, or whose answers decide a kept verdict: compiled types
 * (json-schema-to-typescript), samples (randexp), sample verdicts (@cfworker/json-schema), schema checks
 * (ajv, ajv-formats, and re2js for their patterns), pattern verdicts of lint (safe-regex2, re2js), the
 * manifest's parsed pieces (js-yaml). A new version of any of them starts an empty cache, even without a
 * new build of mcp-gen.
 */
const LIBRARIES = ['json-schema-to-typescript', 'randexp', '@cfworker/json-schema', 'ajv', 'ajv-formats', 'safe-regex2', 're2js', 'js-yaml'];

/** The `package.json` of a package as read from `file`, or undefined when it is not that package's. */
function packageVersion(file: string, name: string): string | undefined {
  const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
  return pkg.name === name && typeof pkg.version === 'string' ? pkg.version : undefined;
}

/**
 * The installed version of `name`: from the `package.json` of the folder Node would load it from, the
 * first `node_modules/<name>` above `from` (found without resolving its exports, which `require` does for
 * every package and costs more than the run's own work on a small change); else from its `package.json` as
 * `require` finds it, or, for a package whose exports do not list that file, from the nearest
 * `package.json` of that name above its entry point.
 */
function versionOf(require: NodeRequire, name: string, from: string): string {
  try {
    for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) {
      if (basename(dir) === 'node_modules') continue;
      const file = join(dir, 'node_modules', name, 'package.json');
      if (existsSync(file)) {
        const version = packageVersion(file, name);
        if (version !== undefined) return version;
        break;
      }
    }
  } catch {
    // Unreadable: found by `require` below.
  }
  try {
    return (require(`${name}/package.json`) as { version: string }).version;
  } catch {
    // Not exported: found from the entry point below.
  }
  try {
    for (let dir = dirname(require.resolve(name)); dir !== dirname(dir); dir = dirname(dir)) {
      const file = join(dir, 'package.json');
      if (!existsSync(file)) continue;
      const version = packageVersion(file, name);
      if (version !== undefined) return version;
    }
  } catch {
    // Not installed: the version stays unknown.
  }
  return '?';
}

/** The build of mcp-gen and the versions of the cached libraries, or undefined when not built. */
export function cacheVersion(): string | undefined {
  let build: string;
  try {
    build = (JSON.parse(readFileSync(new URL('../build-id.json', import.meta.url), 'utf8')) as { buildId: string }).buildId;
  } catch {
    return undefined;
  }
  const require = createRequire(import.meta.url);
  const from = dirname(fileURLToPath(import.meta.url));
  const versions = LIBRARIES.map((name) => `${name}@${versionOf(require, name, from)}`);
  return [build, ...versions].join(' ');
}

/** The cache the last run of this manifest (with this `--out`) left, or an empty one. */
export function openCache(cwd: string, manifest: string, outOption?: string): GenerationCache {
  const version = cacheVersion() ?? 'unbuilt';
  const path = cacheFileOf(cwd, manifest, outOption, 'incremental')?.path;
  let text: Buffer | undefined;
  try {
    text = path === undefined ? undefined : readFileSync(path);
  } catch {
    text = undefined;
  }
  return GenerationCache.parse(text, version);
}

/**
 * Keeps `cache` for the next run (written whole, then renamed: a reader never sees half a file). The file
 * is written on one of libuv's threads, and the one it replaces is freed there too (see write/journal.ts).
 */
export async function storeCache(cwd: string, manifest: string, outOption: string | undefined, cache: GenerationCache): Promise<void> {
  const at = cacheFileOf(cwd, manifest, outOption, 'incremental');
  if (at === undefined || cache.version === 'unbuilt') return;
  const { path, folder } = at;
  mkdirSync(folder.dir, { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeContent(tmp, cache.toParts());
  const old = `${path}.${process.pid}.old`;
  const aside = linkAside(path, old);
  renameSync(tmp, path);
  if (aside) await unlink(old);
}

function stampOf(path: string): Stamp | undefined {
  try {
    const s = statSync(path, { throwIfNoEntry: false });
    return s === undefined ? undefined : { size: s.size, mtimeMs: s.mtimeMs };
  } catch {
    return undefined;
  }
}

/**
 * `rel` (a relative path the emitters or the record give, already normal) under `outDir`, for a stat only:
 * joined as text, since `join` normalizing each of a thousand handler paths costs as much as the stats.
 */
const under = (outDir: string, rel: string): string => (outDir.endsWith(sep) ? outDir + rel : outDir + sep + rel);


/**
 * What a successful run left in its output folder: every generator-owned file with the hash the plan
 * computed (and what it was laid out from, `texts`), and every handler file the plan kept or wrote as its
 * spec asks, each with its stamp now (the stamp the plan saw for a file it kept unread, which the write did
 * not touch), and the key of the IR entry its spec follows from. `global` is the hash of the server-wide
 * inputs the files were laid out under.
 */
export function diskAfter(plan: WritePlan, handlers: readonly EmittedFile[], texts?: ReadonlyMap<string, FileTexts>, global?: string): DiskRecord {
  const written = new Set(plan.actions.flatMap((a) => (a.kind === 'keep' ? [] : [a.path])));
  const stamp = (rel: string) => (written.has(rel) ? undefined : plan.stamps.get(rel)) ?? stampOf(under(plan.outDir, rel));
  const files: Record<string, Stamp & { hash: string } & Partial<FileTexts>> = {};
  for (const [rel, hash] of Object.entries(plan.hashes)) {
    const st = stamp(rel);
    const t = texts?.get(rel);
    if (st) files[rel] = { size: st.size, mtimeMs: st.mtimeMs, hash, ...t };
  }
  const warned = new Set(plan.notes.filter((n) => n.level !== 'info').map((n) => n.path));
  const out: Record<string, Stamp & { spec: string; declared?: true; key?: string; parsed?: string }> = {};
  for (const f of handlers) {
    const h = f.handler;
    if (h === undefined || warned.has(h.path)) continue;
    const st = stamp(h.path);
    const key = (f as { specKey?: string }).specKey;
    if (st) out[h.path] = { size: st.size, mtimeMs: st.mtimeMs, spec: plan.specs.get(h.path) ?? specHash(h), ...(plan.declared.has(h.path) ? { declared: true as const } : {}), ...(key !== undefined ? { key } : {}), ...parsedOf(plan, h.path) };
  }
  // A removed primitive's handler keeps what is known of its content parsing, under no spec (so no stamp vouches for it).
  const emitted = new Set(handlers.flatMap((f) => (f.handler ? [f.handler.path] : [])));
  for (const [rel, parsed] of plan.parsed) {
    if (emitted.has(rel)) continue;
    const st = stamp(rel);
    if (st) out[rel] = { size: st.size, mtimeMs: st.mtimeMs, spec: '', parsed };
  }
  return { outDir: plan.outDir, ...(global !== undefined ? { global } : {}), files, handlers: out };
}

/** The `parsed` field of a handler's record: what the plan knows of its content parsing. */
function parsedOf(plan: WritePlan, rel: string): { parsed?: string } {
  const parsed = plan.parsed.get(rel);
  return parsed !== undefined ? { parsed } : {};
}

/** The file's stamp now when it still has the size and modification time recorded for it. */
export function stampIfSame(outDir: string, rel: string, recorded: Stamp): Stamp | undefined {
  const now = stampOf(under(outDir, rel));
  return now !== undefined && now.size === recorded.size && now.mtimeMs === recorded.mtimeMs ? now : undefined;
}
