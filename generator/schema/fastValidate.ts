/**
 * Generation-time data validation (example calls, made-up samples) with an
 * interpretive validator: no code generation per schema, so checking a
 * thousand examples costs milliseconds instead of the seconds compiling each
 * schema with Ajv would. The generated servers still validate with Ajv.
 */
import { dereference, validate, type Schema, type SchemaDraft } from '@cfworker/json-schema';

type Lookup = Record<string, Schema | boolean>;

/** The draft name the validator uses for a `$schema` URI (default 2020-12). */
function draftOf(schema: unknown): SchemaDraft {
  const uri = typeof schema === 'object' && schema !== null ? (schema as { $schema?: unknown }).$schema : undefined;
  if (typeof uri !== 'string') return '2020-12';
  if (uri.includes('2019-09')) return '2019-09';
  if (uri.includes('draft-07') || uri.includes('draft-06')) return '7';
  if (uri.includes('draft-04')) return '4';
  return '2020-12';
}

/** Validates data against schemas that may reference a fixed set of registered schemas by absolute URI. */
export class FastValidator {
  private readonly base: Lookup = {};

  /** `registered`: `[absolute $id, schema]` pairs that `$ref`s may point at. */
  constructor(registered: Iterable<readonly [string, unknown]> = []) {
    for (const [id, schema] of registered) {
      const s = typeof schema === 'object' && schema !== null ? { ...(schema as object), $id: id } : schema;
      dereference(s as Schema | boolean, this.base);
    }
  }

  /** True when `data` satisfies `schema`. */
  valid(schema: unknown, data: unknown): boolean {
    try {
      const lookup = dereference(schema as Schema | boolean, { ...this.base });
      return validate(data, schema as Schema | boolean, draftOf(schema), lookup, true).valid;
    } catch {
      return false;
    }
  }
}
