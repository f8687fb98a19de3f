/**
 * `jsonSchema<T>()`: a JSON Schema literal wrapped as the Standard Schema the
 * SDK requires for `inputSchema`, `outputSchema` and `argsSchema`.
 *
 * Unlike the SDK's `fromJsonSchema`, nothing compiles when the wrapper is
 * built: the validator is compiled on the first `validate` call and cached on
 * the wrapper, so start-up cost does not grow with the number of tools.
 */
import type { StandardSchemaV1, StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import type { ValidateFunction } from 'ajv';
import { compileSchema, formatAjvErrors } from './ajv.js';

/** A JSON Schema document as generated code writes it. */
export type JsonSchemaObject = { readonly [key: string]: unknown };

/** Options for {@link jsonSchema}. */
export interface JsonSchemaOptions {
  /** The schema advertised through `~standard.jsonSchema` when it differs from the one validated. */
  readonly advertised?: JsonSchemaObject;
}

/** The Standard Schema (with JSON Schema conversion) that {@link jsonSchema} returns. */
export interface JsonStandardSchema<T> extends StandardSchemaWithJSON<T, T> {
  /** The schema exactly as given (never copied or mutated). */
  readonly schema: JsonSchemaObject;
  /** Validates synchronously; the same function `~standard.validate` uses. */
  check(value: unknown): StandardSchemaV1.Result<T>;
}

/**
 * Builds a lazily compiled validator for one schema. Shared by every wrapper in
 * this folder so they all compile through the one Ajv per dialect.
 */
export function lazyValidator<T>(schema: JsonSchemaObject | boolean, pointerPrefix = ''): (value: unknown) => StandardSchemaV1.Result<T> {
  let compiled: ValidateFunction | undefined;
  return (value) => {
    compiled ??= compileSchema(schema as object | boolean);
    if (compiled(value)) return { value: value as T };
    return { issues: formatAjvErrors(compiled.errors, pointerPrefix) };
  };
}

/**
 * Wraps a JSON Schema (2020-12 unless `$schema` says 2019-09 or draft-07) as a
 * Standard Schema. `T` is the TypeScript type generated for the schema; it is
 * trusted, not checked. The schema must be self-contained (`$defs` + `#/$defs/…`).
 */
export function jsonSchema<T = unknown>(schema: JsonSchemaObject, options: JsonSchemaOptions = {}): JsonStandardSchema<T> {
  const check = lazyValidator<T>(schema);
  const advertised = options.advertised ?? schema;
  return {
    schema,
    check,
    '~standard': {
      version: 1,
      vendor: 'mcp-gen',
      validate: check,
      jsonSchema: { input: () => advertised as Record<string, unknown>, output: () => advertised as Record<string, unknown> },
    },
  };
}

/**
 * A pass-through Standard Schema that advertises `schema`'s JSON Schema but accepts any value.
 * Registered as a tool's `inputSchema` or a prompt's `argsSchema` so the SDK lists the real schema
 * while validation runs inside the runtime callback, after the scope check: an unauthorized caller
 * never sees validation errors, and a missing scope is never masked by a malformed input.
 */
export function gated<T>(schema: StandardSchemaWithJSON<T, T>): StandardSchemaWithJSON<T, T> {
  let wrapper = gatedCache.get(schema);
  if (!wrapper) {
    wrapper = {
      '~standard': {
        version: 1,
        vendor: 'mcp-gen',
        validate: (value: unknown) => ({ value }),
        jsonSchema: schema['~standard'].jsonSchema,
      },
    } as StandardSchemaWithJSON<unknown, unknown>;
    gatedCache.set(schema, wrapper);
  }
  return wrapper as StandardSchemaWithJSON<T, T>;
}

const gatedCache = new WeakMap<object, StandardSchemaWithJSON<unknown, unknown>>();
