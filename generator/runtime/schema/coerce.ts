/**
 * String → declared type conversion for values that travel as strings on the
 * wire (prompt arguments, URI template variables). The manifest may declare
 * integer, number, boolean or an enum of non-strings; the string is converted
 * before validation so the schema still has the last word.
 */
import type { JsonSchemaObject } from './jsonSchema.js';

const INTEGER = /^-?(0|[1-9][0-9]*)$/;
const NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;

function declaredTypes(schema: JsonSchemaObject): string[] {
  const type = schema.type;
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === 'string');
  return [];
}

/**
 * Converts `raw` to the type `schema` declares. Returns the string unchanged
 * when no conversion applies; validation then reports the mismatch.
 */
export function coerceString(raw: string, schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null) return raw;
  const s = schema as JsonSchemaObject;
  // An enum or const names its values exactly: pick the member whose string
  // form matches, so `enum: [1, 2]` accepts "2" as the number 2.
  const members = Array.isArray(s.enum) ? s.enum : 'const' in s ? [s.const] : undefined;
  if (members) {
    const hit = members.find((m) => typeof m !== 'object' && String(m) === raw);
    if (hit !== undefined) return hit;
  }
  const types = declaredTypes(s);
  if (types.includes('string')) return raw;
  if (types.includes('integer') && INTEGER.test(raw)) return Number(raw);
  if (types.includes('number') && NUMBER.test(raw)) return Number(raw);
  if (types.includes('boolean') && (raw === 'true' || raw === 'false')) return raw === 'true';
  if (types.includes('null') && raw === 'null') return null;
  return raw;
}
