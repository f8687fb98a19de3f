/**
 * Tool, resource and schema names for imported operations: from `operationId`
 * (or `x-mcp.name`), otherwise a deterministic fallback from method and path
 * (`GET /pets/{petId}` → `get_pets_by_petId`). Names follow the MCP rules
 * (A-Z a-z 0-9 _ - ., at most 64 characters so every client takes them).
 */
import { toTypeName } from '../../ir/names.js';

/** The longest name the importer writes (lint MG719). */
export const MAX_NAME = 64;

/** A name made of the allowed characters only, at most 64 long. */
export function cleanName(raw: string): string {
  const cleaned = raw.replace(/[^A-Za-z0-9_.-]+/g, '_').replace(/^[_.-]+|[_.-]+$/g, '');
  return (cleaned || 'operation').slice(0, MAX_NAME).replace(/[_.-]+$/, '');
}

/** The fallback name of an operation without `operationId`. */
export function fallbackName(method: string, path: string): string {
  const parts = path.split('/').filter(Boolean).map((seg) => (/^\{.+\}$/.test(seg) ? `by_${seg.slice(1, -1)}` : seg));
  return cleanName([method.toLowerCase(), ...parts].join('_'));
}

/** A template variable or input property for a path parameter: RFC 6570 varname characters only. */
export function variableName(raw: string): string {
  const v = raw.replace(/[^A-Za-z0-9_]/g, '_');
  return /^[0-9]/.test(v) ? `_${v}` : v || '_';
}

/** The suffixes the generator adds to primitive type names: a schema must not take one of those names. */
const ROLE_SUFFIXES = ['Input', 'Output', 'Tool', 'Params', 'Content', 'Resource'];

/** Renames component schemas whose type name would clash with a primitive's generated types (`Schema` suffix). */
export function schemaNames(components: readonly string[], primitives: readonly string[]): Map<string, string> {
  const taken = new Set(primitives.flatMap((p) => ROLE_SUFFIXES.map((s) => `${toTypeName(p)}${s}`)));
  const out = new Map<string, string>();
  const used = new Set<string>();
  for (const c of components) {
    let name = c;
    while (taken.has(toTypeName(name)) || used.has(toTypeName(name))) name = `${name}Schema`;
    used.add(toTypeName(name));
    out.set(c, name);
  }
  return out;
}
