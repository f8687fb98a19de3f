/**
 * Bookkeeping shared by every gated callback: who is calling, when it started,
 * the argument hash, and exactly one audit event when it ends.
 */
import type { ServerContext } from '@modelcontextprotocol/server';
import type { Runtime } from '../context.js';
import type { Identity } from '../options.js';
import type { AuditOutcome } from './audit.js';
import { sha256Of } from './hash.js';

/** Extra audit fields known by the time a call ends. */
export interface CallEnd {
  readonly reason?: string;
  readonly idempotencyKey?: string;
  readonly approval?: string;
}

/** One call in progress. */
export interface Call {
  readonly identity: Identity;
  readonly argsSha256: string;
  /** Records the audit event (only the first call counts). */
  end(outcome: AuditOutcome, extra?: CallEnd): void;
}

/** Starts the bookkeeping of one call, read or get. */
export function beginCall(rt: Runtime, kind: 'tool' | 'resource' | 'prompt', name: string, sdk: ServerContext, args: unknown, uri?: string): Call {
  rt.observe(sdk);
  const identity = rt.identify(sdk);
  const started = rt.now();
  // Hashed when first needed (the audit event), so a server without an audit sink never pays for it.
  let hash: string | undefined;
  const argsSha256 = (): string => {
    if (hash !== undefined) return hash;
    try {
      hash = sha256Of(args ?? null);
    } catch {
      // Deeply nested or cyclic values: hash their size-bounded string form instead.
      hash = sha256Of(String(args));
    }
    return hash;
  };
  let ended = false;
  return {
    identity,
    get argsSha256() {
      return argsSha256();
    },
    end(outcome, extra = {}) {
      if (ended) return;
      ended = true;
      if (!rt.auditing) return;
      rt.audit({
        time: new Date(started).toISOString(),
        kind,
        name,
        principal: identity.principal,
        ...(identity.tenant === undefined ? {} : { tenant: identity.tenant }),
        // A getter: a batching sink serialises the event after the response is sent, so the hash is
        // computed off the request's path.
        get argsSha256() {
          return argsSha256();
        },
        outcome,
        durationMs: Math.max(0, rt.now() - started),
        ...(uri === undefined ? {} : { uri }),
        ...(extra.idempotencyKey === undefined ? {} : { idempotencyKey: extra.idempotencyKey }),
        ...(extra.approval === undefined ? {} : { approval: extra.approval }),
        ...(extra.reason === undefined ? {} : { reason: extra.reason.slice(0, 200) }),
      });
    },
  };
}

/** Size of a JSON value in UTF-8 bytes, or Infinity when it cannot be serialized. */
export function jsonBytes(value: unknown): number {
  try {
    return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}
