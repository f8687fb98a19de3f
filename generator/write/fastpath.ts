/**
 * The no-op fast path. After a successful run, a cache entry (outside the
 * output folder, never committed) records the build of mcp-gen, a hash of
 * every input file and of every file written. When all of them still match,
 * a regeneration has nothing to do, and this module proves it without
 * loading the YAML parser, the validators or the emitters.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HandlerSpec } from '../emit/handlers.js';
import { cacheFileOf, trimFolder } from './cache-folder.js';
import { looksComplete } from './handlers.js';
import { listGenerated } from './plan.js';

/** What a handler file must still contain for a run to have nothing to add to it. */
type HandlerShape = Pick<HandlerSpec, 'path' | 'id' | 'typeName' | 'completeKeys'> & { readonly members: readonly { readonly name: string; readonly text: string }[] };

/** A file's size and modification time when the cache entry was written: unchanged means not rewritten. */
interface Stamp {
  readonly size: number;
  readonly mtimeMs: number;
}

/**
 * A warning of a run about one file of the output folder (the kept handler of a removed primitive, a
 * handler that does not parse): while that file is as the run left it, a run now would give it again.
 */
export interface FileWarning {
  readonly path: string;
  readonly message: string;
}

/** What `upToDate` proves: the output folder is current, and the warnings its last run gave still hold. */
export interface Current {
  readonly outDir: string;
  readonly warnings: readonly FileWarning[];
}

interface CacheEntry {
  readonly buildId: string;
  readonly outDir: string;
  readonly inputs: Readonly<Record<string, string>>;
  readonly outputs: Readonly<Record<string, string>>;
  readonly handlers: readonly HandlerShape[];
  /** Stamps of outputs and handler files: a file whose stamp still matches is not read again. */
  readonly stamps?: Readonly<Record<string, Stamp>>;
  /** The run's warnings, each about a file whose stamp is in `stamps`. */
  readonly warnings?: readonly FileWarning[];
}

function stampOf(path: string): Stamp | undefined {
  try {
    const s = statSync(path);
    return { size: s.size, mtimeMs: s.mtimeMs };
  } catch {
    return undefined;
  }
}

/** True when the file still has the size and modification time recorded for it. */
function sameStamp(path: string, recorded: Stamp | undefined): boolean {
  if (!recorded) return false;
  const now = stampOf(path);
  return now !== undefined && now.size === recorded.size && now.mtimeMs === recorded.mtimeMs;
}

const hashText = (b: Buffer | string): string => createHash('sha256').update(b).digest('hex');

function buildId(): string | undefined {
  try {
    return (JSON.parse(readFileSync(new URL('../build-id.json', import.meta.url), 'utf8')) as { buildId: string }).buildId;
  } catch {
    return undefined; // not built by `npm run build`: no fast path
  }
}

function hashFile(path: string): string | undefined {
  try {
    return hashText(readFileSync(path));
  } catch {
    return undefined;
  }
}

/**
 * The output folder when the last run of this manifest (with this `--out`) is provably still current, with
 * the warnings that run gave (a run now would give them again: the files they are about are unchanged).
 */
export async function upToDate(cwd: string, manifest: string, outOption?: string): Promise<Current | undefined> {
  const path = cacheFileOf(cwd, manifest, outOption, 'json')?.path;
  const id = buildId();
  if (!path || !id) return undefined;
  let entry: CacheEntry;
  try {
    entry = JSON.parse(readFileSync(path, 'utf8')) as CacheEntry;
  } catch {
    return undefined;
  }
  if (entry.buildId !== id) return undefined;
  if (existsSync(join(entry.outDir, '.mcp-gen-journal.json')) || existsSync(join(entry.outDir, '.mcp-gen-staging'))) return undefined;
  for (const [file, h] of Object.entries(entry.inputs)) if (hashFile(file) !== h) return undefined;
  const stamps = entry.stamps ?? {};
  for (const [rel, h] of Object.entries(entry.outputs)) {
    const file = join(entry.outDir, rel);
    if (!sameStamp(file, stamps[rel]) && hashFile(file) !== h) return undefined;
  }
  // A generated-looking file the last run did not write (restored by git, copied in) needs a full run to remove or report it.
  if ((await listGenerated(entry.outDir)).some((rel) => entry.outputs[rel] === undefined)) return undefined;
  for (const h of entry.handlers) {
    // Unchanged since the run that found it complete: no need to read it again.
    if (sameStamp(join(entry.outDir, h.path), stamps[h.path])) continue;
    let content: string;
    try {
      content = readFileSync(join(entry.outDir, h.path), 'utf8');
    } catch {
      return undefined;
    }
    if (!looksComplete(content, h as HandlerSpec)) return undefined;
  }
  const warnings = entry.warnings ?? [];
  // A file a warning is about that was deleted or edited since (the author's answer to it) needs a full run.
  if (warnings.some((w) => !sameStamp(join(entry.outDir, w.path), stamps[w.path]))) return undefined;
  return { outDir: entry.outDir, warnings };
}

/** A file the run wrote: its content, or the sha256 (hex) of its content when the caller has it already. */
export type Output = { readonly path: string; readonly content: string } | { readonly path: string; readonly sha256: string };

/**
 * Records a run that left `outDir` exactly as generated from `inputs` (absolute paths), with the warnings
 * it gave about files of `outDir`. `stamps` are the files' stamps as the run left them, when the caller
 * took them already.
 */
export async function remember(
  cwd: string,
  manifest: string,
  outOption: string | undefined,
  run: { outDir: string; inputs: readonly string[]; outputs: readonly Output[]; handlers: readonly HandlerSpec[]; warnings?: readonly FileWarning[]; stamps?: Readonly<Record<string, Stamp>> },
): Promise<void> {
  const at = cacheFileOf(cwd, manifest, outOption, 'json');
  const id = buildId();
  if (!at || !id) return;
  const inputs: Record<string, string> = {};
  for (const f of run.inputs) {
    const h = hashFile(f);
    if (h === undefined) return;
    inputs[f] = h;
  }
  const outputs = Object.fromEntries(run.outputs.map((o) => [o.path, 'sha256' in o ? o.sha256 : hashText(o.content)]));
  const handlers = run.handlers.map((h) => ({ path: h.path, id: h.id, typeName: h.typeName, completeKeys: h.completeKeys, members: h.members.map((m) => ({ name: m.name, text: '' })) }));
  const warnings = (run.warnings ?? []).map((w) => ({ path: w.path, message: w.message }));
  const stamps: Record<string, Stamp> = {};
  for (const rel of [...Object.keys(outputs), ...handlers.map((h) => h.path), ...warnings.map((w) => w.path)]) {
    const known = run.stamps?.[rel];
    const st = known ? { size: known.size, mtimeMs: known.mtimeMs } : stampOf(join(run.outDir, rel));
    if (st) stamps[rel] = st;
  }
  const entry: CacheEntry = { buildId: id, outDir: run.outDir, inputs, outputs, handlers, stamps, ...(warnings.length > 0 ? { warnings } : {}) };
  mkdirSync(at.folder.dir, { recursive: true });
  // Written whole, then renamed: a run reading the entry meanwhile never sees half of it.
  const staged = `${at.path}.${process.pid}.tmp`;
  writeFileSync(staged, JSON.stringify(entry), 'utf8');
  renameSync(staged, at.path);
  // Every run that writes, with the incremental cache or without, writes this entry: the one place the
  // user's folder is kept to its bound.
  trimFolder(at.folder);
}
