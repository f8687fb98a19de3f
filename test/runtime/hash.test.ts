/** Canonical hashing: the audit log, idempotency store and approval receipts name an input by this digest. */
import { createHash } from 'node:crypto';
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
