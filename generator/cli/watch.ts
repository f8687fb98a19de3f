/**
 * `mcp-gen generate --watch`: generate, then regenerate on every save of an
 * input file (the manifest, `$ref`'d schema files, `source:` files). A save
 * that does not load prints its diagnostics and leaves the last good output
 * alone; the loop keeps watching until Ctrl-C.
 */
import { watch as fsWatch } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { UserError } from '../diagnostics.js';
import { formatDiagnostic } from '../manifest/index.js';
import { loadManifest } from '../pipeline.js';
import { generate, openCache, type GenerateResult, type RunOptions } from '../pipeline.js';
import type { GenerationCache } from '../cache.js';
import { TypeCompiler } from '../emit/type-compiler.js';
import { HANDLERS_FOLDER } from '../ir/names.js';

/** Where the loop prints. */
export interface WatchIo {
  out(text: string): void;
  err(text: string): void;
  readonly color: boolean;
}

/** A started watcher. */
export interface WatchHandle {
  close(): void;
}

/** Everything the loop does to the outside world, injectable for tests. */
export interface WatchDeps {
  generate(manifest: string, options: RunOptions): Promise<GenerateResult>;
  /** The input files of a manifest, even when it does not load. */
  inputsOf(manifest: string): Promise<readonly string[]>;
  /** Watches one folder; `onEvent` gets the changed entry's name when the platform knows it. */
  watchDir(dir: string, onEvent: (name: string | null) => void): WatchHandle;
  /** Settles when the user asks to stop (Ctrl-C). */
  stopped(): Promise<void>;
  /** The clock, for the time printed on each run. */
  now(): Date;
  readonly debounceMs: number;
}

/** The real file system, clock and signals. */
export const realWatchDeps: WatchDeps = {
  generate,
  inputsOf: async (manifest) => (await loadManifest(manifest)).files,
  watchDir(dir, onEvent) {
    try {
      const w = fsWatch(dir, { persistent: true }, (_event, name) => onEvent(name === null ? null : String(name)));
      w.on('error', () => undefined); // a folder deleted under us: its files are reported missing on the next run
      return w;
    } catch {
      return { close: () => undefined }; // a folder that does not exist (yet): nothing to watch in it
    }
  },
  stopped: () =>
    new Promise<void>((done) => {
      process.once('SIGINT', () => done());
      process.once('SIGTERM', () => done());
    }),
  now: () => new Date(),
  debounceMs: 100,
};

const clock = (d: Date) => d.toTimeString().slice(0, 8);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What one successful run changed, in one line. */
export function describeRun(r: GenerateResult): string {
  const { created, written, edited, removed } = r.report;
  if (created.length + written.length + edited.length + removed.length === 0) return 'no changes';
  return [
    plural(created.length, 'created', 'created'),
    plural(written.length, 'updated', 'updated'),
    `${plural(edited.length, 'handler file')} edited`,
    plural(removed.length, 'removed', 'removed'),
  ].join(', ');
}

/**
 * Runs the watch loop for one manifest until `deps.stopped()` settles, then
 * closes every watcher and returns the exit code (0).
 */
export async function watchGenerate(
  manifest: string,
  options: Omit<RunOptions, 'cache'> & { readonly cache?: boolean },
  io: WatchIo,
  deps: WatchDeps = realWatchDeps,
): Promise<number> {
  const { cache: useCache, ...runOptions } = options;
  const cwd = options.cwd ?? process.cwd();
  const rel = (p: string) => relative(cwd, p) || '.';
  const types = new TypeCompiler();
  // Held for the loop's life like the type compiler: each save reuses what the previous runs computed.
  let cache: GenerationCache | undefined = useCache === false ? undefined : openCache(cwd, manifest, options.outDir);
  let files = new Set<string>();
  const watchers = new Map<string, WatchHandle>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let closed = false;

  const sync = (next: Iterable<string>) => {
    files = new Set(next);
    const dirs = new Set([...files].map((f) => dirname(f)));
    for (const [dir, w] of watchers) if (!dirs.has(dir)) (w.close(), watchers.delete(dir));
    for (const dir of dirs) {
      if (watchers.has(dir)) continue;
      watchers.set(dir, deps.watchDir(dir, (name) => {
        if (name === null || files.has(join(dir, name)) || files.has(join(dir, basename(name)))) schedule();
      }));
    }
  };

  const once = async () => {
    const stamp = clock(deps.now());
    try {
      cache = cache?.carryOver();
      const r = await deps.generate(manifest, { ...runOptions, types, ...(cache ? { cache } : {}) });
      for (const d of r.findings.warnings) io.err(formatDiagnostic(d, { color: io.color }));
      io.out(`[${stamp}] ${manifest} → ${rel(r.outDir)}: ${describeRun(r)}`);
      for (const p of r.report.created.filter((x) => x.startsWith(HANDLERS_FOLDER))) io.out(`  new handler stub: ${rel(r.outDir)}/${p}`);
      for (const n of r.notes) io.out(`  ${n.level === 'warning' ? 'warning: ' : ''}${rel(r.outDir)}/${n.path}: ${n.message}`);
      sync(r.inputs);
    } catch (e) {
      if (!(e instanceof UserError)) {
        io.err(`[${stamp}] mcp-gen: internal error (a bug in mcp-gen, please report it with the manifest that caused it):`);
        io.err(e instanceof Error ? (e.stack ?? e.message) : String(e));
      } else {
        for (const d of e.diagnostics) io.err(formatDiagnostic(d, { color: io.color }));
        io.err(`[${stamp}] error: ${e.message}`);
      }
      io.err(`[${stamp}] kept the last good output; waiting for the next save.`);
      // Keep watching what the last good run read, plus whatever this attempt read.
      sync([...files, ...(await deps.inputsOf(manifest).catch(() => [] as string[]))]);
    }
  };

  const trigger = () => {
    if (closed) return;
    if (running) {
      again = true;
      return;
    }
    running = once().finally(() => {
      running = undefined;
      if (again) {
        again = false;
        trigger();
      }
    });
  };
  function schedule() {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      trigger();
    }, deps.debounceMs);
  }

  const stop = deps.stopped();
  types.start(); // held for the whole loop: every run after the first finds it loaded and warm
  try {
    trigger();
    await running;
    io.out(`Watching ${plural(files.size, 'file')} for changes; press Ctrl-C to stop.`);
    await stop;
    closed = true;
    if (timer !== undefined) clearTimeout(timer);
    for (const w of watchers.values()) w.close();
    watchers.clear();
    await running;
  } finally {
    types.stop();
  }
  return 0;
}
