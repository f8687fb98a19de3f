/**
 * Runs the bundled command line (`dist/bundle/`, written by scripts/build-bundle.mjs) with V8's code cache.
 *
 * Node 20 keeps no compiled code between runs (`module.enableCompileCache` came with Node 22), so a run
 * compiles every function it calls from its text: at 1,000 primitives, about 35 ms of a one-primitive
 * change (bench/README.md). The bundle is one CommonJS file, compiled here with `vm.Script` and the code
 * V8 cached for it, which holds the bytecode of every function the run that wrote it had compiled; V8
 * takes that instead of compiling them again, and compiles the others from the text when first called.
 *
 * The cache sits beside the bundle, `<bundle>.v8`. V8 checks a cache against its own version and flags but
 * checks only the length of the text, so the bundle's name holds a hash of its text (`cli-<hash>.cjs`),
 * and a cache never meets a bundle other than its own. `npm run build` writes the cache after a generation
 * of an example and two regenerations after changes to it (scripts/build-code-cache.mjs). A run that finds no cache,
 * or one V8 refuses (another Node), writes a new one when it ends; so does a run through the pipeline when
 * the cache it found was written by a run that was not (a regeneration with nothing to do compiles little).
 * Writing is staged and renamed, and a folder that cannot be written to is left as it is.
 *
 * `MCP_GEN_CODE_CACHE=off` neither reads nor writes a cache (nor does Node before 20.15, without zlib.crc32).
 */
import { readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Script } from 'node:vm';
import * as zlib from 'node:zlib';
import { guardStdout } from './stdout.js';

/** The environment variable that turns the code cache off. */
export const CODE_CACHE_ENV = 'MCP_GEN_CODE_CACHE';

/** The bundle's file name: `cli-` and a hash of its text (scripts/build-bundle.mjs). */
const BUNDLE_NAME = /^cli-[0-9a-f]{16,64}\.cjs$/;

/**
 * A cache file: one byte, written by a run through the pipeline (`FULL`) or by one that was not, then the
 * CRC-32 of the code (V8 does not check its payload outside debug builds, and a damaged one must not
 * reach it), then the code.
 */
const FULL = 0x46;
const PARTIAL = 0x50;
const HEADER = 5;

/** CRC-32 (Node 20.15 and later; before, runs keep no code cache). */
const crc32 = (zlib as { crc32?: (data: Uint8Array) => number }).crc32;

/** The code of a cache file, when its header is one and its checksum is right. */
function checkedCode(file: Buffer): Buffer | undefined {
  if (crc32 === undefined || file.length <= HEADER || (file[0] !== FULL && file[0] !== PARTIAL)) return undefined;
  const code = file.subarray(HEADER);
  return crc32(code) === file.readUInt32BE(1) ? code : undefined;
}

/** What the bundle exports (its entry, scripts/build-bundle.mjs). */
interface BundleExports {
  main(argv: readonly string[]): Promise<number>;
  /** Whether this process loaded the pipeline. */
  loadedPipeline(): boolean;
  /** Sets V8's flags a one-shot run changed back to their defaults; false when they cannot be. */
  untuneOneShotRun(): boolean;
}

/** How the run found the cache. */
export type CacheState = 'accepted' | 'rejected' | 'missing' | 'off';

/** The bundle, compiled and run up to its exports. */
export interface LoadedBundle {
  readonly file: string;
  readonly cacheFile: string;
  readonly state: CacheState;
  /** The cache found was written by a run through the pipeline. */
  readonly full: boolean;
  readonly exports: BundleExports;
  readonly script: Script;
}

/** What `runBundle` did. */
export interface BundleRun {
  readonly status: number;
  readonly cache: CacheState;
  /** A new cache was written. */
  readonly wrote: boolean;
}

const off = (env: NodeJS.ProcessEnv): boolean => crc32 === undefined || env[CODE_CACHE_ENV]?.trim().toLowerCase() === 'off';

/** The bundle's file in `dir`, or undefined when the build made none. */
export function bundleFile(dir: string): string | undefined {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return undefined;
  }
  const found = names.filter((n) => BUNDLE_NAME.test(n));
  return found.length === 1 ? join(dir, found[0]!) : undefined;
}

const readOrUndefined = (file: string): Buffer | undefined => {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
};

/**
 * Compiles the bundle in `dir` (with its cache unless `MCP_GEN_CODE_CACHE=off`) and runs its top level.
 * Undefined when `dir` holds no bundle.
 */
export function loadBundle(dir: string, env: NodeJS.ProcessEnv = process.env): LoadedBundle | undefined {
  const file = bundleFile(resolve(dir));
  if (file === undefined) return undefined;
  const cacheFile = `${file}.v8`;
  const source = readFileSync(file, 'utf8');
  const cached = off(env) ? undefined : readOrUndefined(cacheFile);
  const code = cached === undefined ? undefined : checkedCode(cached);
  // The bundle's free names: CommonJS's, the URL of dist/ (for files found beside a module, see
  // scripts/build-bundle.mjs) and `import()` of the packages it loads that way, resolved from here.
  const wrapped = `(function (exports, require, module, __filename, __dirname, __distUrl, __import) {${source}\n})`;
  const script = new Script(wrapped, { filename: file, ...(code ? { cachedData: code } : {}) });
  const state: CacheState = off(env) ? 'off' : code === undefined ? (cached === undefined ? 'missing' : 'rejected') : script.cachedDataRejected === true ? 'rejected' : 'accepted';
  const module = { exports: {} as BundleExports };
  const distUrl = new URL('..', pathToFileURL(file)).href;
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, createRequire(file), module, file, resolve(dir), distUrl, (specifier: string) => import(specifier));
  return { file, cacheFile, state, full: state === 'accepted' && cached![0] === FULL, exports: module.exports, script };
}

/**
 * Writes the code V8 holds for the bundle's functions to its cache file, with V8's flags as a run starts
 * with them (a cache is refused under other flags). False when nothing was written: the flags cannot be
 * set back, or the folder cannot be written to.
 */
export function writeCodeCache(bundle: LoadedBundle, full: boolean): boolean {
  if (crc32 === undefined || !bundle.exports.untuneOneShotRun()) return false;
  const data = bundle.script.createCachedData();
  const staged = `${bundle.cacheFile}.${process.pid}.tmp`;
  try {
    const header = Buffer.alloc(HEADER);
    header[0] = full ? FULL : PARTIAL;
    header.writeUInt32BE(crc32!(data), 1);
    writeFileSync(staged, Buffer.concat([header, data]));
    renameSync(staged, bundle.cacheFile);
    return true;
  } catch {
    rmSync(staged, { force: true });
    return false;
  }
}

/** Whether a run that loaded `bundle` should write its cache when it ends. */
function worthWriting(bundle: LoadedBundle): boolean {
  if (bundle.state === 'off') return false;
  if (bundle.state !== 'accepted') return true;
  return !bundle.full && bundle.exports.loadedPipeline();
}

/**
 * Runs the command line from the bundle in `dir` (a path or a file URL) with `argv`, then writes its code
 * cache when it is worth it. Undefined when `dir` holds no bundle.
 */
export async function runBundle(dir: string | URL, argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<BundleRun | undefined> {
  const bundle = loadBundle(typeof dir === 'string' ? dir : fileURLToPath(dir), env);
  if (bundle === undefined) return undefined;
  guardStdout();
  const status = await bundle.exports.main(argv);
  const wrote = worthWriting(bundle) ? writeCodeCache(bundle, bundle.exports.loadedPipeline()) : false;
  return { status, cache: bundle.state, wrote };
}

/**
 * Loads the bundle in `dir`, lets `drive` run its command line in this process (as many times as it likes),
 * then writes the cache of everything those runs compiled: the build's (scripts/build-code-cache.mjs).
 * Returns what `drive` returned and whether the cache was written.
 */
export async function trainBundle<T>(dir: string, drive: (main: BundleExports['main']) => Promise<T>): Promise<{ statuses: T; wrote: boolean }> {
  const bundle = loadBundle(dir, {});
  if (bundle === undefined) throw new Error(`no bundle in ${dir}`);
  const statuses = await drive((argv) => bundle.exports.main(argv));
  return { statuses, wrote: writeCodeCache(bundle, bundle.exports.loadedPipeline()) };
}
