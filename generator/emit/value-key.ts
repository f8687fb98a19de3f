/**
 * A text key for a schema body that tells apart every value a manifest's schema may hold. Keys built
 * with `JSON.stringify` merge values JSON cannot spell: `Infinity`, `-Infinity`, `NaN` and `null` all
 * become `null`, `-0` becomes `0`, and a property set to `undefined` disappears. Here each of those has
 * a token of its own that no JSON text contains, and a value that is plain JSON keys exactly as
 * `JSON.stringify` writes it.
 */

/** Nesting beyond this is not a schema a manifest wrote (and a cycle never ends): such a value has no key. */
const MAX_DEPTH = 64;

/**
 * The key of `value`, or undefined when it holds something that is not plain data (a class instance,
 * a function, a symbol, a cycle): the caller then does not share work under a key.
 */
export function valueKey(value: unknown): string | undefined {
  return keyOf(value, 0);
}

function keyOf(v: unknown, depth: number): string | undefined {
  if (depth > MAX_DEPTH) return undefined;
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'number':
      return numberKey(v);
    case 'bigint':
      return `${v}n`;
    case 'undefined':
      return 'undefined';
    case 'object':
      if (v === null) return 'null';
      return Array.isArray(v) ? arrayKey(v, depth) : objectKey(v, depth);
    default:
      return undefined;
  }
}

/** Finite numbers as JSON writes them; the rest (and `-0`) as tokens JSON never produces. */
function numberKey(n: number): string {
  if (Number.isFinite(n)) return Object.is(n, -0) ? '-0' : String(n);
  return Number.isNaN(n) ? 'NaN' : n > 0 ? 'Infinity' : '-Infinity';
}

function arrayKey(a: readonly unknown[], depth: number): string | undefined {
  let out = '[';
  for (let i = 0; i < a.length; i++) {
    const k = i in a ? keyOf(a[i], depth + 1) : 'hole';
    if (k === undefined) return undefined;
    out += i === 0 ? k : `,${k}`;
  }
  return `${out}]`;
}

/** Keys in their own order: the order properties are written in is part of what is compiled. */
function objectKey(o: object, depth: number): string | undefined {
  const proto = Object.getPrototypeOf(o);
  if ((proto !== Object.prototype && proto !== null) || Object.getOwnPropertySymbols(o).length > 0) return undefined;
  let out = '{';
  let first = true;
  for (const k of Object.keys(o)) {
    const v = keyOf((o as Record<string, unknown>)[k], depth + 1);
    if (v === undefined) return undefined;
    out += `${first ? '' : ','}${JSON.stringify(k)}:${v}`;
    first = false;
  }
  return `${out}}`;
}
