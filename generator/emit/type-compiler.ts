/**
 * Compiles JSON Schemas to TypeScript with json-schema-to-typescript. Loading that library and compiling
 * are a good part of a large run, so a started `TypeCompiler` moves both to a worker thread, started before the
 * manifest is read: they then run on another core while this thread loads, checks and emits. Without a
 * started worker (or when it fails) the same compilation runs in this thread; the output is identical.
 * The compiler is an object its caller creates and passes to the pipeline (`RunOptions.types`): a command
 * with several manifests, or the watch loop, holds one across runs; nothing is held in module state.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { compileSchema } from './type-library.js';

export { JSTT_OPTIONS, PLACEHOLDER } from './type-library.js';

/** A request to the worker, and its answer: the code, or that it failed (compiled again here to get the error). */
export interface TypeRequest {
  readonly id: number;
  readonly body: object;
}
export type TypeAnswer = { readonly id: number; readonly code: string } | { readonly id: number; readonly failed: true };

/** Compiles in this thread (json-schema-to-typescript is loaded on first use), from a copy of `body`. */
export function compileHere(body: object): Promise<string> {
  return compileSchema(structuredClone(body));
}

/**
 * How many types a run that holds the last run's types (`start({ whenNeeded: true })`) compiles in its own
 * thread rather than start the worker for them. Measured at 1,000 primitives (bench/README.md): a worker
 * takes longer to start and load the library than this thread takes to compile a few types with it.
 */
export const FEW_TYPES = 8;

interface Pending {
  readonly body: object;
  resolve(code: string): void;
  reject(err: unknown): void;
}

/**
 * Compiles schemas to TypeScript, on a worker thread while one is started. Measured in bench/ (see
 * bench/README.md): the worker takes loading and compiling off the main thread for large manifests.
 */
export class TypeCompiler {
  private worker: Worker | undefined;
  /** How many runs (or a watch loop) use the worker: the last to stop it lets it go. */
  private holders = 0;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  /** Started with `whenNeeded` and no worker yet: `need` starts it; until then `compile` compiles here. */
  private deferred = false;

  /**
   * Starts the worker unless it runs already; each call must be paired with `stop`. A long-lived caller
   * (the watch loop) holds it across runs, so it stays loaded and warm. Only the built package has the
   * worker's script (tests that import the sources compile in their own thread). With `whenNeeded` the
   * worker starts only when `need` says many types will be compiled; until then each `compile` runs in
   * this thread. A run whose types all come from the incremental cache then never loads the library, and
   * one with a few new types compiles them here, in less time than a worker takes to start (the command
   * line's bundle holds the library, with its compiled code cached: see cli/codeCache.ts).
   */
  start(options: { readonly whenNeeded?: boolean } = {}): void {
    this.holders++;
    if (this.worker !== undefined) return;
    if (options.whenNeeded === true) {
      this.deferred = true;
      return;
    }
    this.spawn();
  }

  private spawn(): void {
    this.deferred = false;
    const script = new URL('./type-worker.js', import.meta.url);
    if (script.protocol !== 'file:' || !existsSync(fileURLToPath(script))) return;
    let w: Worker;
    try {
      w = new Worker(script);
    } catch {
      return;
    }
    this.worker = w;
    w.unref(); // never what keeps the process alive
    w.on('message', (a: TypeAnswer) => {
      const p = this.pending.get(a.id);
      if (p === undefined) return;
      this.pending.delete(a.id);
      if ('code' in a) p.resolve(a.code);
      else compileHere(p.body).then(p.resolve, p.reject); // the same error, thrown in this thread
    });
    w.on('error', () => this.fallBack());
    w.on('exit', () => {
      if (this.worker !== undefined) this.fallBack();
    });
  }

  /** True while compilation goes to the worker. */
  get onWorker(): boolean {
    return this.worker !== undefined;
  }

  /** Releases one `start`; the last release stops the worker (what it still owes is compiled here). */
  stop(): void {
    this.holders = Math.max(0, this.holders - 1);
    if (this.holders === 0) this.deferred = false;
    if (this.holders === 0 && this.worker !== undefined) this.fallBack();
  }

  /** True while the worker waits for its first type (started `whenNeeded`): `need` would start it. */
  get waiting(): boolean {
    return this.deferred && this.holders > 0;
  }

  /**
   * Says many types will be compiled: a worker started `whenNeeded` starts now, so it loads while the run
   * does other work (see `typesToCompile` in emit/types.ts).
   */
  need(): void {
    if (this.waiting) this.spawn();
  }

  /** The TypeScript json-schema-to-typescript writes for `body` under the name `PLACEHOLDER`. */
  compile(body: object): Promise<string> {
    const w = this.worker;
    if (w === undefined) return compileHere(body);
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.pending.set(id, { body, resolve, reject });
      w.postMessage({ id, body } satisfies TypeRequest);
    });
  }

  /** Hands what the worker still owes back to this thread, and lets the worker go. */
  private fallBack(): void {
    const w = this.worker;
    this.worker = undefined;
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      compileHere(p.body).then(p.resolve, p.reject);
    }
    void w?.terminate();
  }
}
