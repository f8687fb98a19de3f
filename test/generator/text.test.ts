import { describe, expect, it } from 'vitest';
import { tidy } from '../../generator/emit/context.js';
import { code, key, lit, lit1, str } from '../../generator/emit/text.js';

/**
 * The layout rule `lit` follows, written the plain way: a value goes on one line when its one-line form,
 * started at the indentation of its line (a member: after its key), ends at column 110 or before
 * (`width`), otherwise one entry per line. `lit` finds the same answer without writing the one-line form
 * of subtrees that cannot fit.
 */
function reference(value: unknown, indent: number, column: number, names?: ReadonlyMap<object, string>, root?: unknown, width = 110): string {
  const one = (v: unknown, top: boolean): string => {
    if (v === null || typeof v !== 'object') return lit1(v);
    if (!top || v !== root) {
      const n = names?.get(v);
      if (n !== undefined) return n;
    }
    if (Array.isArray(v)) return `[${v.map((x) => one(x, false)).join(', ')}]`;
    const entries = Object.entries(v).filter(([, x]) => x !== undefined);
    return entries.length === 0 ? '{}' : `{ ${entries.map(([k, x]) => `${key(k)}: ${one(x, false)}`).join(', ')} }`;
  };
  if (value === undefined) return 'undefined';
  if (value !== null && typeof value === 'object' && value !== root && names?.has(value)) return names.get(value)!;
  const flat = one(value, true);
  if (column + flat.length <= width || value === null || typeof value !== 'object') return flat;
  const pad = ' '.repeat(indent + 2);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((v) => `${pad}${reference(v, indent + 2, indent + 2, names, undefined, width)},`).join('\n')}\n${' '.repeat(indent)}]`;
  }
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([k, v]) => `${pad}${key(k)}: ${reference(v, indent + 2, indent + 4 + key(k).length, names, undefined, width)},`).join('\n')}\n${' '.repeat(indent)}}`;
}

/** A deterministic pseudo-random JSON value with strings of every length around the line width. */
function randomValue(seed: number): unknown {
  let s = seed;
  const next = () => ((s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const text = () => ['a', "it's", 'x\ny', 'ünï', 'k-v', '\u2028'][Math.floor(next() * 6)]!.repeat(1 + Math.floor(next() * 40));
  const make = (depth: number): unknown => {
    const r = next();
    if (depth > 4 || r < 0.3) return [null, true, 42, -1.5, text(), text()][Math.floor(next() * 6)];
    if (r < 0.6) return Array.from({ length: Math.floor(next() * 6) }, () => make(depth + 1));
    const o: Record<string, unknown> = {};
    for (let i = Math.floor(next() * 6); i > 0; i--) o[next() < 0.8 ? `k${i}` : `key ${text()}`] = next() < 0.1 ? undefined : make(depth + 1);
    return o;
  };
  return make(0);
}

describe('lit', () => {
  it('lays out 2,000 random values exactly as the plain rule does, at every indentation and shift', () => {
    for (let seed = 1; seed <= 2000; seed++) {
      const value = randomValue(seed);
      const indent = (seed % 5) * 2;
      const shift = (seed % 4) * 3;
      expect(lit(value, indent, undefined, false, shift), `seed ${seed}`).toBe(reference(value, indent, indent, undefined, undefined, 110 - shift));
    }
  });

  it('round-trips every random value as a TypeScript expression', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const value = randomValue(seed);
      const strip = (v: unknown): unknown => JSON.parse(JSON.stringify(v) ?? 'null');
      expect(strip(new Function(`return (${lit(value)});`)()), `seed ${seed}`).toEqual(strip(value));
    }
  });

  it('keeps a value on one line up to column 110 from its indentation and breaks it at 111', () => {
    const value = { name: 'x'.repeat(99) }; // `{ name: 'xxx…' }`: 111 characters
    expect(lit(value)).toBe(`{\n  name: '${'x'.repeat(99)}',\n}`);
    const shorter = { name: 'x'.repeat(98) }; // 110 characters
    expect(lit(shorter)).toBe(`{ name: '${'x'.repeat(98)}' }`);
    expect(lit(shorter, 2)).toBe(`{\n    name: '${'x'.repeat(98)}',\n  }`);
    // A shift narrows the line without changing the indentation written.
    expect(lit(shorter, 0, undefined, false, 1)).toBe(`{\n  name: '${'x'.repeat(98)}',\n}`);
    expect(lit([[], {}], 0, undefined, false, 200)).toBe('[\n  [],\n  {},\n]');
  });

  it('writes code fragments as they are, as one token of the layout', () => {
    expect(lit({ uri: code("expand('t/{id}', { id: 'a' })"), n: 1 })).toBe("{ uri: expand('t/{id}', { id: 'a' }), n: 1 }");
    const long = code(`f(${'1, '.repeat(60)}1)`);
    expect(lit({ a: long })).toBe(`{\n  a: ${long.text},\n}`);
  });

  it('writes named objects as their identifiers, and lays out the root itself with expandRoot', () => {
    const shared = { type: 'string' };
    const value = { a: shared, b: [shared, { c: 1 }] };
    const names = new Map<object, string>([[shared, 'Shared']]);
    expect(lit(value, 0, names)).toBe('{ a: Shared, b: [Shared, { c: 1 }] }');
    expect(lit(shared, 0, names)).toBe('Shared');
    expect(lit(shared, 0, names, true)).toBe("{ type: 'string' }");
    for (let seed = 1; seed <= 300; seed++) {
      const v = randomValue(seed);
      const withShared = { first: v, again: [v, shared], shared };
      const named = new Map<object, string>(v !== null && typeof v === 'object' ? [[v, 'V'], [shared, 'S']] : [[shared, 'S']]);
      expect(lit(withShared, 2, named), `seed ${seed}`).toBe(reference(withShared, 2, 2, named));
      expect(lit(v, 0, named, true), `seed ${seed}`).toBe(reference(v, 0, 0, named, v));
    }
  });
});

describe('str', () => {
  it('round-trips strings that need escapes and strings that need none', () => {
    const cases = ['', 'plain text', "it's", 'back\\slash', 'line\nbreak\r\t', '\u0000\u001f\u007f', '\u2028\u2029', '😀', '\ud800 lone', 'lone \udc00', 'ünïcödé'];
    for (const s of cases) {
      const code = str(s);
      expect(code.startsWith("'") && code.endsWith("'")).toBe(true);
      expect(code).not.toMatch(/[\n\r\u2028\u2029]/);
      expect(new Function(`return ${code};`)()).toBe(s);
    }
    expect(str('plain text')).toBe("'plain text'");
  });
});

describe('tidy', () => {
  it('ends a file with exactly one newline and changes nothing inside it', () => {
    expect(tidy('a\n\n\n  b  \n\n\n')).toBe('a\n\n\n  b\n');
    expect(tidy('x')).toBe('x\n');
  });
});
