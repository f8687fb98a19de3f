import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Ajv, AnySchema, ErrorObject, ValidateFunction } from 'ajv';
import type { Ajv2019 } from 'ajv/dist/2019.js';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { dialectOf, type Dialect } from './dialect.js';
import { isObject } from './pointer.js';
import { FastValidator } from '../schema/fastValidate.js';
import { jsonExact, type GenerationCache } from '../cache.js';

/** Base URI under which named schemas are registered, so `#/schemas/X` refs resolve. */
const NAMED_BASE = 'https://mcp-gen.invalid/schemas/';

type AnyAjv = Ajv | Ajv2019 | Ajv2020;

/** The outcome of checking one schema: undefined when valid. */
export interface SchemaProblem {
  /** JSON pointer inside the schema where the problem is. */
  readonly pointer: string;
  readonly message: string;
  /** How to fix it, when the problem has a fix of its own. */
  readonly hint?: string;
}

/**
 * Checks and compiles the manifest's JSON Schemas with Ajv, one instance per
 * dialect, each knowing every named schema so `#/schemas/Name` refs (even
 * recursive ones) resolve the way the generated server will resolve them.
 */
export class SchemaRegistry {
  private readonly instances = new Map<Dialect, AnyAjv>();
  private fast: FastValidator | undefined;
  /** Why each pattern seen in this run is not a valid `u`-mode regular expression (undefined: valid); patterns repeat. */
  private readonly regexErrors = new Map<string, string | undefined>();

  constructor(
    private readonly named: ReadonlyMap<string, unknown>,
    private readonly cache?: GenerationCache,
  ) {}

  /**
   * Meta-validates a schema and compiles it (which catches bad regexes); the first problem, if any. The
   * answer depends on the schema alone, so a schema an earlier run found valid (in `cache`) is not checked again.
   */
  check(schema: unknown): SchemaProblem | undefined {
    if (this.cache === undefined || !jsonExact(schema)) return this.checkNow(schema);
    let problem: SchemaProblem | undefined;
    const valid = this.cache.verdict(`schema\0${JSON.stringify(schema)}`, () => (problem = this.checkNow(schema)) === undefined);
    return valid ? undefined : (problem ?? this.checkNow(schema));
  }

  private checkNow(schema: unknown): SchemaProblem | undefined {
    // Meta-validation takes Infinity and NaN for numbers; JSON, in which every schema is published, has none.
    const unwritable = findNonFinite(schema);
    if (unwritable !== undefined) return unwritable;
    const $schema = isObject(schema) ? schema.$schema : undefined;
    // The default dialect has a validator precompiled at build time; the others use Ajv's own meta-schemas.
    const meta = $schema === undefined ? metaValidator() : undefined;
    let errors: readonly ErrorObject[] | null | undefined;
    if (meta) errors = meta(schema) ? undefined : meta.errors;
    else {
      const ajv = this.instance(dialectOf($schema) ?? '2020-12');
      errors = ajv.validateSchema(schema as AnySchema) ? undefined : ajv.errors;
    }
    if (errors !== undefined) {
      const e = pickError(errors ?? []);
      return { pointer: e?.instancePath ?? '', message: describe(e, schema) };
    }
    // Bad regexes are the one schema error meta-validation misses; compiling every schema to find them
    // would cost seconds for a large manifest.
    return findBadPattern(schema, '', (pattern) => {
      if (!this.regexErrors.has(pattern)) this.regexErrors.set(pattern, regexError(pattern));
      return this.regexErrors.get(pattern);
    });
  }

  /**
   * Why `data` does not satisfy `schema`, or undefined when it does. A fast interpretive check runs
   * first; Ajv (the validator the generated server uses) compiles the schema only to describe a failure.
   */
  mismatch(schema: unknown, data: unknown): ErrorObject[] | undefined {
    this.fast ??= new FastValidator([...this.named].map(([name, s]) => [NAMED_BASE + encodeURIComponent(name), prepare(s)] as const));
    if (this.fast.valid(prepare(schema), data)) return undefined;
    const fn = this.validator(schema);
    if (!fn || fn(data)) return undefined;
    return fn.errors ?? [];
  }

  /** A validator for data against `schema`, or undefined when the schema does not compile. */
  validator(schema: unknown): ValidateFunction | undefined {
    const ajv = this.instance(dialectOf(isObject(schema) ? schema.$schema : undefined) ?? '2020-12');
    try {
      return ajv.compile(prepare(schema));
    } catch {
      return undefined;
    }
  }

  private instance(d: Dialect): AnyAjv {
    let ajv = this.instances.get(d);
    if (ajv) return ajv;
    const opts = { strict: false, allErrors: false, logger: false as const };
    // Ajv loads with the first schema that needs it: checking a valid manifest in the default dialect does not.
    ajv =
      d === 'draft-07'
        ? new (requireHere('ajv') as typeof import('ajv')).Ajv(opts)
        : d === '2019-09'
          ? new (requireHere('ajv/dist/2019.js') as typeof import('ajv/dist/2019.js')).Ajv2019(opts)
          : new (requireHere('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js')).Ajv2020(opts);
    (requireHere('ajv-formats') as typeof import('ajv-formats')).default(ajv as Ajv);
    for (const [name, s] of this.named) {
      // Skip meta-validation here: each named schema is checked on its own, in its own dialect.
      ajv.addSchema(prepare(s) as AnySchema, NAMED_BASE + encodeURIComponent(name), undefined, false);
    }
    this.instances.set(d, ajv);
    return ajv;
  }
}

// Not named `require`: the bundle turns a `createRequire(import.meta.url)('./x')` call into CommonJS's `require`.
const requireHere = createRequire(import.meta.url);
let meta: ValidateFunction | null | undefined;

/** The 2020-12 meta-schema validator precompiled by scripts/build-shape-validator.mjs, or null (running from source). */
function metaValidator(): ValidateFunction | null {
  if (meta === undefined) {
    const url = new URL('./meta-validator/index.js', import.meta.url);
    // A literal path, so the bundle holds it (see shape.ts).
    meta = existsSync(url) ? (createRequire(import.meta.url)('./meta-validator/index.js') as ValidateFunction) : null;
  }
  return meta;
}

/** A copy with `#/schemas/X` refs made absolute and the root `$schema` dropped (the instance fixes the dialect). */
function prepare(schema: unknown): AnySchema {
  const walk = (n: unknown, depth: number): unknown => {
    if (Array.isArray(n)) return n.map((v) => walk(v, depth + 1));
    if (!isObject(n)) return n;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(n)) {
      if (k === '$schema' && depth === 0) continue;
      if (k === '$ref' && typeof v === 'string' && v.startsWith('#/schemas/')) out[k] = NAMED_BASE + v.slice('#/schemas/'.length);
      else out[k] = ['enum', 'const', 'examples', 'default'].includes(k) ? v : walk(v, depth + 1);
    }
    return out;
  };
  return walk(schema, 0) as AnySchema;
}

/** The YAML spellings of the numbers JSON cannot hold. */
const NON_FINITE = (n: number) => (Number.isNaN(n) ? '.nan' : n > 0 ? '.inf' : '-.inf');

/**
 * The first `.inf`, `-.inf` or `.nan` in a schema, keywords and data (`enum`, `const`, `default`) alike: a
 * published schema is JSON, where such a number would be written `null` and mean something else.
 */
function findNonFinite(node: unknown): SchemaProblem | undefined {
  const walk = (n: unknown, pointer: string): SchemaProblem | undefined => {
    if (typeof n === 'number' && !Number.isFinite(n)) {
      return {
        pointer,
        message: `\`${NON_FINITE(n)}\` is not a JSON number, and schemas are published as JSON (it would read \`null\`)`,
        hint: 'write a finite number, or leave the keyword out (no `maximum` is no upper bound)',
      };
    }
    if (n === null || typeof n !== 'object') return undefined;
    for (const [k, v] of Object.entries(n)) {
      const found = walk(v, `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`);
      if (found) return found;
    }
    return undefined;
  };
  return walk(node, '');
}

/** Ajv only says a regex is bad when compiling, without saying where; find it to point at it. */
function findBadPattern(node: unknown, pointer: string, errorOf: (pattern: string) => string | undefined): SchemaProblem | undefined {
  const path: string[] = [];
  const at = (k: string) => `${pointer}${path.map((p) => `/${p}`).join('')}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`;
  const walk = (n: unknown): SchemaProblem | undefined => {
    if (Array.isArray(n)) {
      for (let i = 0; i < n.length; i++) {
        path.push(String(i));
        const p = walk(n[i]);
        path.pop();
        if (p) return p;
      }
      return undefined;
    }
    if (!isObject(n)) return undefined;
    for (const [k, v] of Object.entries(n)) {
      const patterns = k === 'pattern' && typeof v === 'string' ? [v] : k === 'patternProperties' && isObject(v) ? Object.keys(v) : [];
      for (const pattern of patterns) {
        const error = errorOf(pattern);
        if (error !== undefined) return { pointer: at(k), message: `\`${pattern}\` is not a valid regular expression (${error})` };
      }
      if (v !== null && typeof v === 'object' && !NOT_SCHEMAS.has(k)) {
        path.push(k.replace(/~/g, '~0').replace(/\//g, '~1'));
        const p = walk(v);
        path.pop();
        if (p) return p;
      }
    }
    return undefined;
  };
  return walk(node);
}

/** Keywords whose values are data, not subschemas. */
const NOT_SCHEMAS = new Set(['enum', 'const', 'examples', 'default']);

/** Why a pattern is not a valid `u`-mode regular expression, or undefined. */
function regexError(pattern: string): string | undefined {
  try {
    new RegExp(pattern, 'u');
    return undefined;
  } catch (err) {
    return (err as Error).message.replace(/^Invalid regular expression: /, '');
  }
}

const TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'];

/** Meta-schema errors nest through anyOf; the deepest one names the real culprit. */
function pickError(errors: readonly ErrorObject[]): ErrorObject | undefined {
  return [...errors].sort((a, b) => b.instancePath.length - a.instancePath.length)[0];
}

function describe(e: ErrorObject | undefined, schema: unknown): string {
  if (!e) return 'not a valid JSON Schema';
  const where = e.instancePath ? `at \`${e.instancePath}\`` : 'at the root';
  if (e.instancePath.endsWith('/type')) {
    const value = e.instancePath.split('/').slice(1).reduce<unknown>((cur, k) => (isObject(cur) ? cur[k] : undefined), schema);
    return `\`${String(value)}\` is not a JSON Schema type ${where}; types are ${TYPES.join(', ')}`;
  }
  return `${where}: ${e.message ?? 'invalid'}`;
}

/** One readable line for the first data-validation error. */
export function describeDataError(errors: readonly ErrorObject[] | null | undefined): { pointer: string; message: string } {
  const e = errors?.[0];
  if (!e) return { pointer: '', message: 'does not match' };
  const extra =
    e.keyword === 'additionalProperties' ? ` (\`${String(e.params.additionalProperty)}\`)` :
    e.keyword === 'enum' ? `: ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}` : '';
  return { pointer: e.instancePath, message: `${e.instancePath || 'the value'} ${e.message ?? 'is invalid'}${extra}` };
}
