import type { ManifestPath } from './source-map.js';

/**
 * A local reference, published as written: a JSON pointer into the schema that holds it (its root,
 * its own `$defs`/`definitions`, or any subschema such as `#/properties/a`, which converters like
 * zod-to-json-schema emit for a reused type). `#/schemas/…` is the manifest's named schemas instead.
 */
export const LOCAL_REF = /^#(\/(?!schemas(\/|$)).*)?$/;

/** A local reference into a schema's own `$defs`/`definitions`, or to its root. */
export const DEFINITIONS_REF = /^#(\/(\$defs|definitions)(\/.*)?)?$/;

/**
 * Converts a JSON pointer (`/tools/a~1b/examples/0`) into a path over `root`,
 * turning segments into numbers where the value they index is an array.
 */
export function pointerToPath(pointer: string, root: unknown): (string | number)[] {
  if (pointer === '' || pointer === '/') return pointer === '/' ? [''] : [];
  const out: (string | number)[] = [];
  let cur: unknown = root;
  for (const raw of pointer.split('/').slice(1)) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(cur) && /^\d+$/.test(seg)) {
      out.push(Number(seg));
      cur = cur[Number(seg)];
    } else {
      out.push(seg);
      cur = cur !== null && typeof cur === 'object' ? (cur as Record<string, unknown>)[seg] : undefined;
    }
  }
  return out;
}

/** The value at `path` inside `root`, or undefined. */
export function getAt(root: unknown, path: ManifestPath): unknown {
  let cur = root;
  for (const seg of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[String(seg)];
  }
  return cur;
}

/** Plain-object test used by every phase (arrays and null are not objects here). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
