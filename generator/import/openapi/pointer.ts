/** JSON pointers inside one bundled document. */

/** The value at a local `#/...` pointer, or undefined. */
export function resolvePointer(doc: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let cur: unknown = doc;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const part = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (cur === null || typeof cur !== 'object' || !(part in (cur as object))) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** Follows `$ref`s (parameters, responses, request bodies) to the object they name. */
export function deref<T>(doc: unknown, value: unknown, depth = 0): T | undefined {
  if (value && typeof value === 'object' && typeof (value as { $ref?: unknown }).$ref === 'string' && depth < 32) {
    return deref<T>(doc, resolvePointer(doc, (value as { $ref: string }).$ref), depth + 1);
  }
  return value as T | undefined;
}
