/**
 * Canonical hashing of request arguments: the audit log, the idempotency store
 * and approval receipts all name "this exact input" by the same digest, so a
 * receipt or a stored result can never be matched to a different input.
 */
import * as crypto from 'node:crypto';
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * JSON with object keys sorted at every level, so equal values hash equally whatever their key order.
 * The text is written directly from the value, never by rebuilding objects: assigning an own `__proto__`
 * (or any other key) to a fresh object can drop or redirect it, and two different inputs would then share
 * one form. Every own enumerable key is written, so the form is injective on JSON values.
 */
export function canonicalJson(value: unknown): string {
  return write(value, new Set()) ?? 'null';
}

/** The canonical text of `value`, or undefined where JSON has no value (undefined, functions, symbols). */
function write(value: unknown, open: Set<object>): string | undefined {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
    case 'boolean':
      return JSON.stringify(value);
    case 'bigint':
      throw new TypeError('canonicalJson: a BigInt has no JSON form');
    case 'object':
      break;
    default:
      return undefined;
  }
  const object = value as object;
  if (open.has(object)) throw new TypeError('canonicalJson: the value is cyclic');
  open.add(object);
  try {
    if (Array.isArray(object)) {
      let out = '[';
      for (let i = 0; i < object.length; i++) out += `${i === 0 ? '' : ','}${write(object[i], open) ?? 'null'}`;
      return `${out}]`;
    }
    // Objects with `toJSON` (a Date, say) are written as the plain objects they are, like any other.
    const record = object as Record<string, unknown>;
    let out = '{';
    let first = true;
    for (const key of Object.keys(record).sort()) {
      const text = write(record[key], open);
      if (text === undefined) continue;
      out += `${first ? '' : ','}${JSON.stringify(key)}:${text}`;
      first = false;
    }
    return `${out}}`;
  } finally {
    open.delete(object);
  }
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
