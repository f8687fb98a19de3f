/**
 * The worker thread of `type-compiler.ts`: loads json-schema-to-typescript at once (less the modules only
 * `compile` calls, loaded on a first call: see `deferModule`), then compiles on request, as
 * type-library.ts does (a message is a fresh copy of the schema already).
 */
import Module, { createRequire } from 'node:module';
import { parentPort } from 'node:worker_threads';
import type { TypeAnswer, TypeRequest } from './type-compiler.js';
import { compileSchema, loadLibrary } from './type-library.js';

type Stage = (...args: unknown[]) => unknown;

const require = createRequire(import.meta.url);

/**
 * Stands in for module `file` of the library, whose functions `names` are called only by `compile`, until
 * one is called: the module is then loaded and the call goes to it. Loading the library's index loads its
 * `$ref` resolver (json-schema-ref-parser) and its formatter (prettier, for an option mcp-gen leaves off),
 * most of the time the worker takes to start, for stages that never call them. A module loaded already,
 * or not found, is left as it is; a name the module no longer exports fails the call, and the calling
 * thread then compiles itself (the same output).
 */
function deferModule(file: string, names: readonly string[]): void {
  let path: string;
  try {
    path = require.resolve(`json-schema-to-typescript/dist/src/${file}.js`);
  } catch {
    return;
  }
  if (require.cache[path] !== undefined) return;
  let real: Record<string, Stage> | undefined;
  const load = (): Record<string, Stage> => {
    if (real === undefined) {
      delete require.cache[path];
      real = require(path) as Record<string, Stage>;
    }
    return real;
  };
  const stub = new Module(path);
  stub.filename = path;
  stub.loaded = true;
  stub.exports = Object.fromEntries(names.map((n) => [n, (...args: unknown[]) => load()[n]!(...args)]));
  require.cache[path] = stub;
}

// In the worker only: a module importing this one (a test) keeps the library as it is.
if (parentPort !== null) {
  deferModule('resolver', ['dereference']);
  deferModule('formatter', ['format']);
}

// Loaded now, once the modules above are deferred: the worker is ready when the first request comes.
loadLibrary();

parentPort?.on('message', (r: TypeRequest) => {
  compileSchema(r.body).then(
    (code) => parentPort?.postMessage({ id: r.id, code } satisfies TypeAnswer),
    () => parentPort?.postMessage({ id: r.id, failed: true } satisfies TypeAnswer),
  );
});
