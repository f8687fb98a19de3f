/** Canonical hashing: the audit log, idempotency store and approval receipts name an input by this digest. */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, sha256Of } from '../../generator/runtime/index.js';
import { exceedsJsonBytes } from '../../generator/runtime/security/call.js';

describe('canonicalJson', () => {
  it('sorts keys at every level, inside arrays too, and leaves the value untouched', () => {
    const value = { b: 1, a: { d: [{ z: 1, y: 2 }, 3], c: null }, e: 'x' };
    const before = JSON.stringify(value);
    expect(canonicalJson(value)).toBe('{"a":{"c":null,"d":[{"y":2,"z":1},3]},"b":1,"e":"x"}');
    expect(JSON.stringify(value)).toBe(before);
  });

  it('gives one form for every key order, and the same form for already sorted values', () => {
    expect(canonicalJson({ a: 1, b: { c: 2, d: 3 } })).toBe(canonicalJson({ b: { d: 3, c: 2 }, a: 1 }));
    expect(canonicalJson({ a: [1, { b: 2 }] })).toBe('{"a":[1,{"b":2}]}');
  });

  it('drops undefined properties, keeps primitives, and treats objects with toJSON as plain objects', () => {
    expect(canonicalJson({ a: undefined, b: 2 })).toBe('{"b":2}');
    expect(canonicalJson('s')).toBe('"s"');
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson({ when: new Date(0) })).toBe('{"when":{}}');
  });
});

describe('sha256Of', () => {
  it('is the hex sha256 of the canonical JSON', () => {
    const value = { z: [1, 2], a: 'é' };
    expect(sha256Of(value)).toBe(createHash('sha256').update(canonicalJson(value)).digest('hex'));
    expect(sha256Of({ a: 'é', z: [1, 2] })).toBe(sha256Of(value));
    expect(sha256Of({ a: 'e', z: [1, 2] })).not.toBe(sha256Of(value));
  });
});

describe('exceedsJsonBytes', () => {
  const exact = (v: unknown) => Buffer.byteLength(JSON.stringify(v) ?? '', 'utf8');
  it('agrees with the exact UTF-8 size of the JSON form at every limit', () => {
    const values: unknown[] = [
      {},
      { itemId: 'I-1' },
      { s: '\u0000\u001f"\\é€😀\ud800', n: -1.7976931348623157e308, b: true, z: null, u: undefined, a: [1, 'x', null, undefined, { k: 'v' }] },
      ['a'.repeat(1000)],
      { nested: { deeper: { deepest: [[[['x']]]] } } },
      { when: new Date(0) },
      Array.from({ length: 40 }, () => ({})).reduce((inner: unknown) => ({ inner }), 1),
    ];
    for (const v of values) {
      const size = exact(v);
      for (const limit of [0, 1, size - 1, size, size + 1, size * 7]) expect(exceedsJsonBytes(v, limit), `${JSON.stringify(v)?.slice(0, 40)} at ${limit}`).toBe(size > limit);
    }
  });

  it('treats a value that cannot be serialised as too large', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(exceedsJsonBytes(cyclic, 1_000_000)).toBe(true);
    expect(exceedsJsonBytes({ big: 10n }, 1_000_000)).toBe(true);
  });
});

/** Keys that rebuilding an object by assignment loses or redirects, mixed with ordinary ones. */
const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'isPrototypeOf'];

/** Builds an object with own properties exactly as JSON.parse does (defineProperty, never assignment). */
function own(entries: readonly (readonly [string, unknown])[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  return out;
}

const jsonWithPrototypeKeys = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.constant(null), fc.boolean(), fc.integer(), fc.string(), tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc
    .uniqueArray(fc.tuple(fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS), fc.string({ maxLength: 4 })), tie('value')), { maxLength: 5, selector: ([k]) => k })
    .map((entries) => own(entries as [string, unknown][])),
})).value;

/** Structural equality on own enumerable keys (what JSON means by equal). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return Object.is(a, b) || (a === 0 && b === 0);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** `value` with one more own key `key` on the object found by following `path` (indexes into keys or items). */
function withExtraKey(value: unknown, path: readonly number[], key: string, extra: unknown): unknown {
  if (value === null || typeof value !== 'object') return own([[key, extra]]);
  const entries: [string, unknown][] = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.keys(value).map((k) => [k, (value as Record<string, unknown>)[k]]);
  if (path.length === 0 || entries.length === 0) {
    if (Array.isArray(value)) return [...value, own([[key, extra]])];
    if (Object.prototype.hasOwnProperty.call(value, key)) return own([...entries.filter(([k]) => k !== key), [key, [extra, 'changed']]]);
    return own([...entries, [key, extra]]);
  }
  const at = path[0]! % entries.length;
  const next = entries.map(([k, v], i) => [k, i === at ? withExtraKey(v, path.slice(1), key, extra) : v] as [string, unknown]);
  return Array.isArray(value) ? next.map(([, v]) => v) : own(next);
}

describe('canonicalJson on keys named after Object.prototype members', () => {
  it('keeps an own __proto__ key, so the attack pair of inputs hashes apart', () => {
    const attack = JSON.parse('{"labels":{"env":"staging","__proto__":"production"}}') as unknown;
    expect(canonicalJson(attack)).toBe('{"labels":{"__proto__":"production","env":"staging"}}');
    expect(sha256Of(attack)).not.toBe(sha256Of({ labels: { env: 'staging' } }));
  });

  it('is a faithful encoding: parsing the canonical form gives back an equal value (so the hash is injective)', () => {
    fc.assert(
      fc.property(jsonWithPrototypeKeys, (value) => {
        expect(sameJson(JSON.parse(canonicalJson(value)), value)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('hashes apart any two inputs that differ by a prototype-named key at any depth', () => {
    fc.assert(
      fc.property(jsonWithPrototypeKeys, fc.array(fc.nat(), { maxLength: 6 }), fc.constantFrom(...PROTOTYPE_KEYS), fc.oneof(fc.string(), fc.integer(), fc.constant(null)), (value, path, key, extra) => {
        const other = withExtraKey(value, path, key, extra);
        fc.pre(!sameJson(value, other));
        expect(sha256Of(other)).not.toBe(sha256Of(value));
      }),
      { numRuns: 500 },
    );
  });
});
