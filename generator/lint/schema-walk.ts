/**
 * Walks a tool's input schema the way a client sees it: every subschema,
 * following `#/schemas/Name` references into the named schema (once each),
 * with the manifest path of every node so findings point at the source.
 */
import type { JsonSchema } from '../ir/types.js';
import type { LintPath } from './types.js';

/** One object-shaped subschema and where it is written. */
export interface SchemaNode {
  readonly schema: Readonly<Record<string, unknown>>;
  readonly path: LintPath;
  /** The property name when this node is the schema of an object property. */
  readonly property?: string;
  /** The named schema this node refers to with `$ref: '#/schemas/Name'`. */
  readonly ref?: string;
}

const MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const SINGLES = ['items', 'additionalProperties', 'unevaluatedProperties', 'unevaluatedItems', 'contains', 'propertyNames', 'not', 'if', 'then', 'else'];
const LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The named schema a `$ref` points at (`#/schemas/Name`), or undefined. */
export function namedRefOf(schema: unknown): string | undefined {
  if (!isRecord(schema) || typeof schema.$ref !== 'string') return undefined;
  const m = /^#\/schemas\/(.+)$/.exec(schema.$ref);
  return m ? decodeURIComponent(m[1]!).replace(/~1/g, '/').replace(/~0/g, '~') : undefined;
}

/**
 * Every subschema of `root` (written at `path`), depth first in key order,
 * entering each referenced named schema once at `schemas.<Name>`.
 */
export function walkSchema(root: JsonSchema, path: LintPath, named: ReadonlyMap<string, JsonSchema>): SchemaNode[] {
  const out: SchemaNode[] = [];
  const entered = new Set<string>();
  const visit = (schema: unknown, at: LintPath, property?: string): void => {
    if (!isRecord(schema)) return;
    const ref = namedRefOf(schema);
    out.push({ schema, path: at, ...(property !== undefined ? { property } : {}), ...(ref !== undefined ? { ref } : {}) });
    for (const k of MAPS) {
      const map = schema[k];
      if (isRecord(map)) for (const [name, s] of Object.entries(map)) visit(s, [...at, k, name], k === 'properties' ? name : undefined);
    }
    for (const k of SINGLES) visit(schema[k], [...at, k]);
    for (const k of LISTS) {
      const list = schema[k];
      if (Array.isArray(list)) list.forEach((s, i) => visit(s, [...at, k, i]));
    }
    if (ref !== undefined && named.has(ref) && !entered.has(ref)) {
      entered.add(ref);
      visit(named.get(ref), ['schemas', ref], property);
    }
  };
  visit(root, path);
  return out;
}

/** Follows root `$ref`s to named schemas until a schema with its own keywords (undefined on a cycle). */
export function derefRoot(schema: JsonSchema, named: ReadonlyMap<string, JsonSchema>): { schema: JsonSchema; path?: LintPath } {
  let cur: JsonSchema = schema;
  let path: LintPath | undefined;
  const seen = new Set<string>();
  for (let ref = namedRefOf(cur); ref !== undefined && named.has(ref) && !seen.has(ref); ref = namedRefOf(cur)) {
    seen.add(ref);
    cur = named.get(ref)!;
    path = ['schemas', ref];
  }
  return path ? { schema: cur, path } : { schema: cur };
}

/** The top-level properties of an input schema (after root references), each with its manifest path. */
export function topProperties(
  input: JsonSchema,
  path: LintPath,
  named: ReadonlyMap<string, JsonSchema>,
): { name: string; schema: Record<string, unknown>; path: LintPath }[] {
  const root = derefRoot(input, named);
  const base = root.path ?? path;
  if (!isRecord(root.schema) || !isRecord(root.schema.properties)) return [];
  return Object.entries(root.schema.properties).map(([name, s]) => {
    const target = derefRoot(s as JsonSchema, named).schema;
    return { name, schema: isRecord(target) ? target : {}, path: [...base, 'properties', name] };
  });
}

/** The JSON types a schema allows (`type` as string or list; `enum`/`const` alone give none). */
export function typesOf(schema: Readonly<Record<string, unknown>>): string[] {
  const t = schema.type;
  return typeof t === 'string' ? [t] : Array.isArray(t) ? t.filter((x): x is string => typeof x === 'string') : [];
}

/** True when a string schema is closed or bounded: enum, const, pattern, format or maxLength. */
export function isBoundedString(schema: Readonly<Record<string, unknown>>): boolean {
  return ['enum', 'const', 'pattern', 'format', 'maxLength'].some((k) => k in schema) || namedRefOf(schema) !== undefined;
}

/** Named schemas referenced anywhere inside a value. */
function refsIn(value: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(value)) for (const v of value) refsIn(v, into);
  else if (isRecord(value)) {
    const r = namedRefOf(value);
    if (r !== undefined) into.add(r);
    for (const [k, v] of Object.entries(value)) if (!['enum', 'const', 'default', 'examples'].includes(k)) refsIn(v, into);
  }
  return into;
}

/** Named schemas that reach themselves through references (published as `$defs`). */
export function recursiveSchemas(named: ReadonlyMap<string, JsonSchema>): Set<string> {
  const edges = new Map([...named].map(([n, s]) => [n, refsIn(s, new Set())] as const));
  const out = new Set<string>();
  for (const start of named.keys()) {
    const seen = new Set<string>();
    const stack = [...(edges.get(start) ?? [])];
    while (stack.length > 0) {
      const n = stack.pop()!;
      if (n === start) {
        out.add(start);
        break;
      }
      if (!seen.has(n)) {
        seen.add(n);
        stack.push(...(edges.get(n) ?? []));
      }
    }
  }
  return out;
}

/** A self-contained copy of a schema with named references inlined (a recursive one once), for size estimates. */
export function inlineNamed(schema: unknown, named: ReadonlyMap<string, JsonSchema>, stack: readonly string[] = []): unknown {
  if (Array.isArray(schema)) return schema.map((v) => inlineNamed(v, named, stack));
  if (!isRecord(schema)) return schema;
  const ref = namedRefOf(schema);
  if (ref !== undefined && named.has(ref) && !stack.includes(ref)) return inlineNamed(named.get(ref), named, [...stack, ref]);
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, inlineNamed(v, named, stack)]));
}
