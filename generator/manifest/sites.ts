import { isObject } from './pointer.js';
import type { ManifestPath } from './source-map.js';

/** Which role an embedded JSON Schema plays in the manifest. */
export type SchemaRole = 'named' | 'input' | 'output' | 'param' | 'content' | 'argument';

/** One embedded JSON Schema and where it sits. */
export interface SchemaSite {
  readonly role: SchemaRole;
  readonly path: ManifestPath;
  readonly schema: unknown;
}

function entries(v: unknown): [string, unknown][] {
  return isObject(v) ? Object.entries(v) : [];
}

/**
 * Every JSON Schema embedded in a (shape-valid) manifest, in a fixed order:
 * named schemas, tool input/output, resource params/schema, prompt argument schemas.
 */
export function schemaSites(m: Record<string, unknown>): SchemaSite[] {
  const out: SchemaSite[] = [];
  const push = (role: SchemaRole, path: ManifestPath, schema: unknown): void => {
    if (schema !== undefined) out.push({ role, path, schema });
  };
  for (const [name, s] of entries(m.schemas)) push('named', ['schemas', name], s);
  for (const [name, t] of entries(m.tools)) {
    if (!isObject(t)) continue;
    push('input', ['tools', name, 'input'], t.input);
    push('output', ['tools', name, 'output'], t.output);
  }
  for (const [name, res] of entries(m.resources)) {
    if (!isObject(res)) continue;
    for (const [p, s] of entries(res.params)) push('param', ['resources', name, 'params', p], s);
    push('content', ['resources', name, 'schema'], res.schema);
  }
  for (const [name, p] of entries(m.prompts)) {
    if (!isObject(p)) continue;
    for (const [a, arg] of entries(p.arguments)) {
      if (isObject(arg)) push('argument', ['prompts', name, 'arguments', a, 'schema'], arg.schema);
    }
  }
  return out;
}

/** Sets the value at `path` in a plain-object tree (the tree is the loader's own copy). */
export function setAt(root: Record<string, unknown>, path: ManifestPath, value: unknown): void {
  let cur: Record<string, unknown> = root;
  for (const seg of path.slice(0, -1)) cur = cur[String(seg)] as Record<string, unknown>;
  cur[String(path[path.length - 1])] = value;
}
