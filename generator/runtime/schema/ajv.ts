/**
 * One shared Ajv instance per JSON Schema dialect, created on first use.
 *
 * Why lazy and shared: a 1000-tool server must start without compiling
 * anything (compilation dominates cold start), and an HTTP server calls its
 * factory per request, so validators must live at module scope, not per
 * server instance. Each schema compiles once, on the first value it checks.
 */
import { createRequire } from 'node:module';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { Ajv2019 } from 'ajv/dist/2019.js';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { linearRegExp } from './regex.js';

/** The dialects generated schemas may declare through `$schema`. */
export type Dialect = '2020-12' | '2019-09' | 'draft-07';

type AnyAjv = Ajv2020 | Ajv2019 | Ajv;

// Ajv and ajv-formats (CommonJS) load with the first schema that compiles, not with the server:
// a server that has not validated anything yet has not paid for them (cold start).
const require = createRequire(import.meta.url);

const instances = new Map<Dialect, AnyAjv>();
let compilations = 0;

/** Picks the dialect from `$schema`; no `$schema` means 2020-12 (the SDK's default too). */
export function dialectOf(schema: unknown): Dialect {
  const uri = typeof schema === 'object' && schema !== null ? (schema as { $schema?: unknown }).$schema : undefined;
  if (typeof uri !== 'string') return '2020-12';
  if (uri.includes('2019-09')) return '2019-09';
  if (uri.includes('draft-07') || uri.includes('draft-06')) return 'draft-07';
  return '2020-12';
}

function newAjv(dialect: Dialect): AnyAjv {
  // strict: false because manifests may carry annotations Ajv does not know
  // (x-…, examples in odd places); allErrors: false keeps failures cheap. Patterns run on RE2
  // (linear time, see regex.ts): a crafted argument cannot make validation backtrack.
  const options = { strict: false, allErrors: false, code: { regExp: linearRegExp } } as const;
  let ajv: AnyAjv;
  if (dialect === '2019-09') ajv = new (require('ajv/dist/2019.js') as typeof import('ajv/dist/2019.js')).Ajv2019(options);
  else if (dialect === 'draft-07') ajv = new (require('ajv') as typeof import('ajv')).Ajv(options);
  else ajv = new (require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js')).Ajv2020(options);
  // Under require, ajv-formats is module.exports: the plugin itself (with `default` pointing to it as well).
  const formats = require('ajv-formats') as { default?: (ajv: AnyAjv) => AnyAjv } & ((ajv: AnyAjv) => AnyAjv);
  (formats.default ?? formats)(ajv);
  return ajv;
}

function ajvFor(dialect: Dialect): AnyAjv {
  let ajv = instances.get(dialect);
  if (!ajv) {
    ajv = newAjv(dialect);
    instances.set(dialect, ajv);
  }
  return ajv;
}

/**
 * Compiles `schema` with the shared instance of its dialect. Callers cache the
 * result; this function counts compilations so tests can prove laziness.
 */
export function compileSchema(schema: object | boolean): ValidateFunction {
  compilations += 1;
  const dialect = dialectOf(schema);
  const ajv = ajvFor(dialect);
  const id = typeof schema === 'object' ? (schema as { $id?: unknown }).$id : undefined;
  if (typeof id === 'string' && ajv.getSchema(id)) {
    // The same `$id` registered by an equal schema literal elsewhere (a named
    // schema used twice): a shared instance refuses a second registration, so
    // compile this copy in a private instance instead of failing.
    return newAjv(dialect).compile(schema);
  }
  return ajv.compile(schema);
}

/** How many schemas have been compiled in this process (for tests and benchmarks). */
export function compilationCount(): number {
  return compilations;
}

/**
 * One validation failure, already phrased for people: `/ticketId must match pattern "…"`.
 * No Standard Schema `path`: the SDK would prefix it (`ticketId: /ticketId …`)
 * and the JSON pointer in the message already names the field.
 */
export interface FormattedIssue {
  readonly message: string;
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Turns Ajv errors into messages that name the offending field by JSON pointer,
 * so the SDK's `Invalid arguments for tool X: …` text tells the caller what to fix.
 */
export function formatAjvErrors(errors: readonly ErrorObject[] | null | undefined, prefix = ''): FormattedIssue[] {
  if (!errors || errors.length === 0) return [{ message: `${prefix || '(root)'} is invalid` }];
  return errors.map((error) => {
    let pointer = prefix + error.instancePath;
    const params = error.params as Record<string, unknown>;
    let message = error.message ?? 'is invalid';
    if (error.keyword === 'additionalProperties' || error.keyword === 'unevaluatedProperties') {
      const extra = String(params.additionalProperty ?? params.unevaluatedProperty ?? '');
      pointer = `${pointer}/${escapePointer(extra)}`;
      message = `is not allowed (${error.keyword === 'additionalProperties' ? 'additional' : 'unevaluated'} property)`;
    } else if (error.keyword === 'enum' && Array.isArray(params.allowedValues)) {
      message = `must be one of ${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    }
    return { message: `${pointer || '(root)'} ${message}` };
  });
}
