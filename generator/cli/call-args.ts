/**
 * Command-line arguments of `mcp-gen call`, typed by the manifest's schemas. A shell has only strings, so
 * `isbn=9780441013593` must stay a string when the schema says string, and `limit=5` become a number
 * only when the schema says number: guessing from the text is what turned digit-only strings into numbers.
 */
import { UserError } from '../diagnostics.js';
import type { IrNamedSchema, JsonSchema } from '../ir/types.js';

type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'object' | 'array';

/** The JSON types a schema admits, following `#/schemas/` references and combinators; empty means any. */
export function admittedTypes(schema: JsonSchema | undefined, named: readonly IrNamedSchema[], seen = new Set<string>()): Set<JsonType> {
  const out = new Set<JsonType>();
  if (schema === undefined || typeof schema === 'boolean') return out;
  const ref = schema['$ref'];
  if (typeof ref === 'string' && ref.startsWith('#/schemas/') && !seen.has(ref)) {
    seen.add(ref);
    const target = named.find((n) => n.name === decodeURIComponent(ref.slice('#/schemas/'.length)));
    for (const t of admittedTypes(target?.schema, named, seen)) out.add(t);
  }
  const type = schema['type'];
  for (const t of Array.isArray(type) ? type : type === undefined ? [] : [type]) out.add(t as JsonType);
  const values = 'const' in schema ? [schema['const']] : Array.isArray(schema['enum']) ? (schema['enum'] as unknown[]) : [];
  for (const v of values) out.add(v === null ? 'null' : Array.isArray(v) ? 'array' : (typeof v as JsonType));
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const branches = schema[key];
    if (Array.isArray(branches)) for (const b of branches) for (const t of admittedTypes(b as JsonSchema, named, seen)) out.add(t);
  }
  return out;
}

/** One `key=value` word converted to the type its schema admits (a string whenever a string is allowed). */
export function typedValue(key: string, text: string, types: ReadonlySet<JsonType>): unknown {
  // No schema to go by: the text as written (`key:=JSON` gives anything else).
  if (types.size === 0) return text;
  if (types.has('string')) return text;
  if ((types.has('number') || types.has('integer')) && text.trim() !== '' && Number.isFinite(Number(text))) return Number(text);
  if (types.has('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  if (types.has('null') && text === 'null') return null;
  if (types.has('object') || types.has('array')) {
    const v = parseJsonOr(text, undefined);
    if (v !== undefined) return v;
    throw new UserError(`argument ${key}: "${text}" is not JSON, and its schema wants ${[...types].join(' or ')}: write ${key}='{"field": "value"}' (quoted for the shell).`);
  }
  throw new UserError(`argument ${key}: "${text}" is not a ${[...types].join(' or ')}, which its schema requires.`);
}

function parseJsonOr<T>(text: string, fallback: T): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return fallback;
  }
}

/** Splits `key=value` (typed by the schema) and `key:=JSON` (taken as JSON) words. */
function splitWord(word: string): { key: string; value: string; raw: boolean } {
  const eq = word.indexOf('=');
  if (eq <= 0) throw new UserError(`argument "${word}" is not key=value: write name=value, or name:=JSON for a JSON value.`);
  const raw = word[eq - 1] === ':';
  return { key: word.slice(0, raw ? eq - 1 : eq), value: word.slice(eq + 1), raw };
}

/** The arguments object of a tool call: each word typed by the input schema's property of that name. */
export function toolArguments(words: readonly string[], input: JsonSchema, named: readonly IrNamedSchema[]): Record<string, unknown> {
  const props = typeof input === 'object' && typeof input['properties'] === 'object' ? (input['properties'] as Record<string, JsonSchema>) : {};
  const out: Record<string, unknown> = {};
  for (const word of words) {
    const { key, value, raw } = splitWord(word);
    if (raw) {
      const v = parseJsonOr(value, undefined);
      if (v === undefined) throw new UserError(`argument ${key}:= takes JSON, and ${value} is not JSON.`);
      out[key] = v;
    } else out[key] = typedValue(key, value, admittedTypes(props[key], named));
  }
  return out;
}

/** Prompt arguments: always strings on the wire (the server converts them by their schemas). */
export function promptArguments(words: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const word of words) {
    const { key, value } = splitWord(word);
    out[key] = value;
  }
  return out;
}
