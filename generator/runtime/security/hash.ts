/**
 * Canonical hashing of request arguments: the audit log, the idempotency store
 * and approval receipts all name "this exact input" by the same digest, so a
 * receipt or a stored result can never be matched to a different input.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** JSON with object keys sorted at every level, so equal values hash equally whatever their key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'null';
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value as object).sort()) out[k] = sortKeys((value as Record<string, unknown>)[k]);
    return out;
  }
  return value;
}

/** Hex sha256 of the canonical JSON of `value`. */
export function sha256Of(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
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
