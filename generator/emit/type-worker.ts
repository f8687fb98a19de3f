/**
 * The worker thread of `type-compiler.ts`: loads json-schema-to-typescript at once, then compiles on request.
 *
 * A schema without `$ref` goes through the library's own stages (link, validate, normalize, parse,
 * optimize, generate) called directly: `compile` would deep-clone it (a message is a fresh copy already)
 * and hand it to its reference resolver, which costs more than the rest together and changes nothing
 * when there is nothing to resolve. A schema with `$ref`, or a library whose stages are not where this
 * version has them, goes through `compile`. The output is the same either way (`type-compiler.test.ts`).
 */
import { createRequire } from 'node:module';
import { parentPort } from 'node:worker_threads';
import { compile } from 'json-schema-to-typescript';
import { JSTT_OPTIONS, PLACEHOLDER, type TypeAnswer, type TypeRequest } from './type-compiler.js';

type Stage = (...args: unknown[]) => unknown;

/** `compile` without cloning and resolving, or undefined when the library's stages are not found. */
export function directCompile(): ((schema: object) => string) | undefined {
  try {
    const require = createRequire(import.meta.url);
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
