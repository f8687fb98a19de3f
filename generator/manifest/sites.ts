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

/** The named schemas of a (shape-valid) manifest, as sites. */
export function namedSites(m: Record<string, unknown>): SchemaSite[] {
  return entries(m.schemas).map(([name, schema]) => ({ role: 'named', path: ['schemas', name], schema }));
}

/**
 * The schemas embedded in one entry of `tools:`, `resources:` or `prompts:`, in a fixed order: tool
 * input and output, resource params and content schema, prompt argument schemas.
 */
export function entrySites(section: string, name: string, entry: unknown): SchemaSite[] {
  const out: SchemaSite[] = [];
  const push = (role: SchemaRole, path: ManifestPath, schema: unknown): void => {
    if (schema !== undefined) out.push({ role, path, schema });
  };
  if (!isObject(entry)) return out;
  if (section === 'tools') {
    push('input', ['tools', name, 'input'], entry.input);
    push('output', ['tools', name, 'output'], entry.output);
  } else if (section === 'resources') {
    for (const [p, s] of entries(entry.params)) push('param', ['resources', name, 'params', p], s);
    push('content', ['resources', name, 'schema'], entry.schema);
  } else if (section === 'prompts') {
    for (const [a, arg] of entries(entry.arguments)) {
      if (isObject(arg)) push('argument', ['prompts', name, 'arguments', a, 'schema'], arg.schema);
    }
  }
  return out;
}

/**
 * Every JSON Schema embedded in a (shape-valid) manifest, in a fixed order:
 * named schemas, tool input/output, resource params/schema, prompt argument schemas.
 */
export function schemaSites(m: Record<string, unknown>): SchemaSite[] {
  const out = namedSites(m);
  for (const section of ['tools', 'resources', 'prompts']) {
    for (const [name, entry] of entries(m[section])) out.push(...entrySites(section, name, entry));
  }
  return out;
}

/** Sets the value at `path` in a plain-object tree (the tree is the loader's own copy). */
export function setAt(root: Record<string, unknown>, path: ManifestPath, value: unknown): void {
  let cur: Record<string, unknown> = root;
  for (const seg of path.slice(0, -1)) cur = cur[String(seg)] as Record<string, unknown>;
  cur[String(path[path.length - 1])] = value;
}
