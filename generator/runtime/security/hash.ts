/**
 * Canonical hashing of request arguments: the audit log, the idempotency store
 * and approval receipts all name "this exact input" by the same digest, so a
 * receipt or a stored result can never be matched to a different input.
 */
import * as crypto from 'node:crypto';
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** JSON with object keys sorted at every level, so equal values hash equally whatever their key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'null';
}

/** `value` with sorted keys; objects whose keys are already in order (and their values) are not copied. */
function sortKeys(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const v = sortKeys(value[i]);
      if (v !== value[i]) (out ??= value.slice())[i] = v;
    }
    return out ?? value;
  }
  const keys = Object.keys(value as object);
  const record = value as Record<string, unknown>;
  // A `toJSON` (a Date, say) would serialise differently from the plain copy the canonical form is: copy.
  let copy = typeof (value as { toJSON?: unknown }).toJSON === 'function';
  for (let i = 1; i < keys.length && !copy; i++) copy = keys[i - 1]! > keys[i]!;
  if (!copy) {
    // Keys in order: the object serves as it is unless a value below needs a sorted copy.
    let changed: Record<string, unknown> | undefined;
    for (let i = 0; i < keys.length; i++) {
      const v = record[keys[i]!];
      if (v === null || typeof v !== 'object') continue;
      const sorted = sortKeys(v);
      if (sorted !== v) {
        changed ??= { ...record };
        changed[keys[i]!] = sorted;
      }
    }
    return changed ?? value;
  }
  const sorted: Record<string, unknown> = {};
  for (const k of keys.sort()) sorted[k] = sortKeys(record[k]);
  return sorted;
}

/** One-shot `crypto.hash` (Node >= 20.12) is several times cheaper than a Hash object. */
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

/** Hex sha256 of the canonical JSON of `value`. */
export function sha256Of(value: unknown): string {
  const json = canonicalJson(value);
  return oneShot ? oneShot('sha256', json, 'hex') : createHash('sha256').update(json).digest('hex');
}

/** Hex HMAC-SHA256 of `text` under `key`. */
export function hmac(key: string | Uint8Array, text: string): string {
  return createHmac('sha256', key).update(text).digest('hex');
}

/** Constant-time comparison of two hex digests. */
export function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}
