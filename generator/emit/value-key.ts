/**
 * A text key for a schema body that tells apart every value a manifest's schema may hold. Keys built
 * with `JSON.stringify` merge values JSON cannot spell: a YAML `.inf`, `-.inf` or `.nan` and `~` all
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
  const parts: string[] = [];
  return write(value, parts, 0) ? parts.join('') : undefined;
}

function write(v: unknown, out: string[], depth: number): boolean {
  if (depth > MAX_DEPTH) return false;
  switch (typeof v) {
    case 'string':
    case 'boolean':
      out.push(JSON.stringify(v));
      return true;
    case 'number':
      out.push(numberKey(v));
      return true;
    case 'bigint':
      out.push(`${v}n`);
      return true;
    case 'undefined':
      out.push('undefined');
      return true;
    case 'object':
      if (v === null) out.push('null');
      else if (Array.isArray(v)) return writeArray(v, out, depth);
      else if (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null) return writeObject(v as Record<string, unknown>, out, depth);
      else return false;
      return true;
    default:
      return false;
  }
}

/** Finite numbers as JSON writes them; the rest (and `-0`) as tokens JSON never produces. */
function numberKey(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return 'Infinity';
  if (n === -Infinity) return '-Infinity';
  if (Object.is(n, -0)) return '-0';
  return JSON.stringify(n);
}

function writeArray(a: readonly unknown[], out: string[], depth: number): boolean {
  out.push('[');
  for (let i = 0; i < a.length; i++) {
    if (i > 0) out.push(',');
    if (!(i in a)) out.push('hole');
    else if (!write(a[i], out, depth + 1)) return false;
  }
  out.push(']');
  return true;
}

/** Keys in their own order: the order properties are written in is part of what is compiled. */
function writeObject(o: Record<string, unknown>, out: string[], depth: number): boolean {
  if (Object.getOwnPropertySymbols(o).length > 0) return false;
  out.push('{');
  let first = true;
  for (const k of Object.keys(o)) {
    if (!first) out.push(',');
    first = false;
    out.push(JSON.stringify(k), ':');
    if (!write(o[k], out, depth + 1)) return false;
  }
  out.push('}');
  return true;
}
