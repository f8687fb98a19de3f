/**
 * Compiles JSON Schemas to TypeScript with json-schema-to-typescript. Loading that library and compiling
 * are a good part of a large run, so `startTypeCompiler` moves both to a worker thread, started before the
 * manifest is read: they then run on another core while this thread loads, checks and emits. Without a
 * started worker (or when it fails) the same compilation runs in this thread; the output is identical.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

/** A name json-schema-to-typescript gives the type, replaced by the real one afterwards. */
export const PLACEHOLDER = 'McpGenTypeNamePlaceholder';

export const JSTT_OPTIONS = {
  bannerComment: '',
  format: false,
  declareExternallyReferenced: false,
  unknownAny: true,
  strictIndexSignatures: false,
  additionalProperties: true,
  ignoreMinAndMaxItems: true,
} as const;

/** A request to the worker, and its answer: the code, or that it failed (compiled again here to get the error). */
export interface TypeRequest {
  readonly id: number;
  readonly body: object;
}
export type TypeAnswer = { readonly id: number; readonly code: string } | { readonly id: number; readonly failed: true };

let library: Promise<typeof import('json-schema-to-typescript')> | undefined;

/** Compiles in this thread (json-schema-to-typescript is loaded on first use). */
export function compileHere(body: object): Promise<string> {
  library ??= import('json-schema-to-typescript');
  return library.then((m) => m.compile(body as never, PLACEHOLDER, JSTT_OPTIONS as never));
}

interface Pending {
  readonly body: object;
  resolve(code: string): void;
  reject(err: unknown): void;
}

let worker: Worker | undefined;
/** How many runs (or a watch loop) use the worker: the last to stop it lets it go. */
let holders = 0;
const pending = new Map<number, Pending>();
let nextId = 0;

/** Hands what the worker still owes back to this thread, and lets the worker go. */
function fallBack(): void {
  const w = worker;
  worker = undefined;
  for (const [id, p] of pending) {
    pending.delete(id);
    compileHere(p.body).then(p.resolve, p.reject);
  }
  void w?.terminate();
}

/**
 * Starts the worker unless it runs already; each call must be paired with `stopTypeCompiler`. A long-lived
 * caller (the watch loop) holds it across runs, so it stays loaded and warm. Only the built package has the
 * worker's script (tests that import the sources compile in their own thread).
 */
export function startTypeCompiler(): void {
  holders++;
  if (worker !== undefined) return;
  const script = new URL('./type-worker.js', import.meta.url);
  if (script.protocol !== 'file:' || !existsSync(fileURLToPath(script))) return;
  try {
    worker = new Worker(script);
  } catch {
    return;
  }
  worker.unref(); // never what keeps the process alive
  worker.on('message', (a: TypeAnswer) => {
    const p = pending.get(a.id);
    if (p === undefined) return;
    pending.delete(a.id);
    if ('code' in a) p.resolve(a.code);
    else compileHere(p.body).then(p.resolve, p.reject); // the same error, thrown in this thread
  });
  worker.on('error', fallBack);
  worker.on('exit', () => {
    if (worker !== undefined) fallBack();
  });
}

/** True while compilation goes to the worker. */
export function onWorker(): boolean {
  return worker !== undefined;
}

/** Releases one `startTypeCompiler`; the last release stops the worker (what it still owes is compiled here). */
export function stopTypeCompiler(): void {
  holders = Math.max(0, holders - 1);
  if (holders === 0 && worker !== undefined) fallBack();
}

/** The TypeScript json-schema-to-typescript writes for `body` under the name `PLACEHOLDER`. */
export function compileType(body: object): Promise<string> {
  const w = worker;
  if (w === undefined) return compileHere(body);
  return new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { body, resolve, reject });
    w.postMessage({ id, body } satisfies TypeRequest);
  });
}
