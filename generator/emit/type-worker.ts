/**
 * The worker thread of `type-compiler.ts`: loads json-schema-to-typescript at once (less the modules only
 * `compile` calls, loaded on a first call: see `deferModule`), then compiles on request.
 *
 * A schema without `$ref` goes through the library's own stages (link, validate, normalize, parse,
 * optimize, generate) called directly: `compile` would deep-clone it (a message is a fresh copy already)
 * and hand it to its reference resolver, which costs more than the rest together and changes nothing
 * when there is nothing to resolve. A schema with `$ref`, or a library whose stages are not where this
 * version has them, goes through `compile`. The output is the same either way (`type-compiler.test.ts`).
 */
import Module, { createRequire } from 'node:module';
import { parentPort } from 'node:worker_threads';
import { JSTT_OPTIONS, PLACEHOLDER, type TypeAnswer, type TypeRequest } from './type-compiler.js';

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

/** The library's `compile`, loaded once the modules above are deferred. */
const { compile } = require('json-schema-to-typescript') as typeof import('json-schema-to-typescript');

/** `compile` without cloning and resolving, or undefined when the library's stages are not found. */
export function directCompile(): ((schema: object) => string) | undefined {
  try {
    const stage = (file: string, name: string): Stage => {
      const f = (require(`json-schema-to-typescript/dist/src/${file}.js`) as Record<string, unknown>)[name];
      if (typeof f !== 'function') throw new Error(`json-schema-to-typescript has no ${file}.${name}`);
      return f as Stage;
    };
    const normalize = stage('normalizer', 'normalize');
    const normalizeNullableRefs = stage('normalizer', 'normalizeNullableRefs');
    const parse = stage('parser', 'parse');
    const nameAnonymousRecursiveTypes = stage('parser', 'nameAnonymousRecursiveTypes');
    const optimize = stage('optimizer', 'optimize');
    const generate = stage('generator', 'generate');
    const link = stage('linker', 'link');
    const validate = stage('validator', 'validate');
    const { DEFAULT_OPTIONS } = require('json-schema-to-typescript') as { DEFAULT_OPTIONS: Record<string, unknown> & { cwd: string } };
    // What `compile` merges: the defaults, these options (none nested), and a cwd ending in a slash.
    const options = { ...DEFAULT_OPTIONS, ...JSTT_OPTIONS, cwd: DEFAULT_OPTIONS.cwd.endsWith('/') ? DEFAULT_OPTIONS.cwd : `${DEFAULT_OPTIONS.cwd}/` };
    return (schema) => {
      normalizeNullableRefs(schema);
      const dereferencedPaths = new WeakMap();
      const linked = link(schema);
      const errors = validate(linked, PLACEHOLDER) as string[];
      if (errors.length > 0) throw new Error(errors.join('\n'));
      const normalized = normalize(linked, dereferencedPaths, PLACEHOLDER, options);
      const processed = new Map();
      const usedNames = new Set();
      const parsed = parse(normalized, options, undefined, processed, usedNames);
      nameAnonymousRecursiveTypes(parsed, processed, dereferencedPaths, usedNames);
      return generate(optimize(parsed, options), options) as string;
    };
  } catch {
    return undefined;
  }
}

const direct = directCompile();

/** The stages change the schema they get: a failure is answered as such, and the calling thread compiles its own copy. */
async function compileOne(body: object): Promise<string> {
  if (direct !== undefined && !JSON.stringify(body).includes('"$ref"')) return direct(body);
  return compile(body as never, PLACEHOLDER, JSTT_OPTIONS as never);
}

parentPort?.on('message', (r: TypeRequest) => {
  compileOne(r.body).then(
    (code) => parentPort?.postMessage({ id: r.id, code } satisfies TypeAnswer),
    () => parentPort?.postMessage({ id: r.id, failed: true } satisfies TypeAnswer),
  );
});
