/**
 * json-schema-to-typescript as the type compiler calls it, in whichever thread compiles (type-compiler.ts,
 * type-worker.ts). Each module of the library is loaded on first use, by its literal name, so the command
 * line's bundle holds them (scripts/build-bundle.mjs; its code cache then holds their compiled code).
 *
 * A schema without `$ref` goes through the library's own stages (link, validate, normalize, parse,
 * optimize, generate) called directly: `compile` would deep-clone it and hand it to its reference
 * resolver, which costs more than the rest together and changes nothing when there is nothing to resolve.
 * A schema with `$ref`, or a library whose stages are not where this version has them, goes through
 * `compile`. The output is the same either way (`type-compiler.test.ts`).
 */
import { createRequire } from 'node:module';

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

type Stage = (...args: unknown[]) => unknown;
type Library = typeof import('json-schema-to-typescript');

let library: Library | undefined;

/** The library's index (its `compile`, `DEFAULT_OPTIONS`). */
export function jstt(): Library {
  return (library ??= createRequire(import.meta.url)('json-schema-to-typescript') as Library);
}

/** The library's stage modules, each by its literal name (see the module comment). */
function stages(): Record<string, Record<string, unknown>> {
  return {
    normalizer: createRequire(import.meta.url)('json-schema-to-typescript/dist/src/normalizer.js') as Record<string, unknown>,
    parser: createRequire(import.meta.url)('json-schema-to-typescript/dist/src/parser.js') as Record<string, unknown>,
    optimizer: createRequire(import.meta.url)('json-schema-to-typescript/dist/src/optimizer.js') as Record<string, unknown>,
    generator: createRequire(import.meta.url)('json-schema-to-typescript/dist/src/generator.js') as Record<string, unknown>,
    linker: createRequire(import.meta.url)('json-schema-to-typescript/dist/src/linker.js') as Record<string, unknown>,
    validator: createRequire(import.meta.url)('json-schema-to-typescript/dist/src/validator.js') as Record<string, unknown>,
  };
}

/** `compile` without cloning and resolving, or undefined when the library's stages are not found. */
export function directCompile(): ((schema: object) => string) | undefined {
  try {
    const modules = stages();
    const stage = (file: string, name: string): Stage => {
      const f = modules[file]?.[name];
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
    const { DEFAULT_OPTIONS } = jstt() as unknown as { DEFAULT_OPTIONS: Record<string, unknown> & { cwd: string } };
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

let direct: ((schema: object) => string) | undefined | null = null;

/** Loads the library now (a worker does at start, to be ready for its first request). */
export function loadLibrary(): void {
  if (direct === null) direct = directCompile();
}

/**
 * The TypeScript json-schema-to-typescript writes for `body` under the name `PLACEHOLDER`. The stages
 * change the schema they get: callers hand over a copy of their own.
 */
export async function compileSchema(body: object): Promise<string> {
  loadLibrary();
  if (direct != null && !JSON.stringify(body).includes('"$ref"')) return direct(body);
  return jstt().compile(body as never, PLACEHOLDER, JSTT_OPTIONS as never);
}
