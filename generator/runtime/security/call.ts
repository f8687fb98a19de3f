/**
 * Bookkeeping shared by every gated callback: who is calling, when it started,
 * the argument hash, and exactly one audit event when it ends.
 */
import type { AuthInfo, ServerContext } from '@modelcontextprotocol/server';
import type { Runtime } from '../context.js';
import type { Identity } from '../options.js';
import type { AuditEvent, AuditKind, AuditOutcome } from './audit.js';
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
export function beginCall(rt: Runtime, kind: AuditKind, name: string, sdk: ServerContext, args: unknown, uri?: string): Call {
  rt.observe(sdk);
  began.add(sdk);
  return new CallRecord(rt, kind, name, rt.identify(sdk), rt.now(), args, uri);
}

/** Request contexts whose request a gate has taken in hand (and will audit). */
const began = new WeakSet<ServerContext>();

/** True when a gate began (and so audits) the request of `sdk`; false means nobody has audited it yet. */
export function wasAudited(sdk: ServerContext): boolean {
  return began.has(sdk);
}

/** Records one refusal that happened before any gated callback ran (unknown names, refused shapes...). */
export function auditRefusal(rt: Runtime, sdk: ServerContext | undefined, kind: AuditKind, name: string, outcome: AuditOutcome, reason: string, args: unknown = {}): void {
  const identity = sdk ? rt.identify(sdk) : rt.identify({} as ServerContext);
  if (sdk) began.add(sdk);
  new CallRecord(rt, kind, name, identity, rt.now(), args, undefined).end(outcome, { reason });
}

/**
 * Audits a 2026 `subscriptions/listen` request the host refused before the SDK saw it (a URI the caller may
 * not follow), with the identity of the request's token (or the launch identity).
 */
export function auditListenRefusal(rt: Runtime, authInfo: AuthInfo | undefined, uri: unknown, reason: string): void {
  const name = typeof uri === 'string' ? uri.slice(0, 200) : '(none)';
  const sdk = authInfo ? ({ http: { authInfo } } as unknown as ServerContext) : undefined;
  auditRefusal(rt, sdk, 'subscription', name, /^Resource not found/.test(reason) ? 'not_found' : 'forbidden', reason, { uri });
}

/** A class rather than a literal with closures and an accessor: one allocation per call, methods shared. */
class CallRecord implements Call {
  private hash: string | undefined;
  private ended = false;

  constructor(
    private readonly rt: Runtime,
    private readonly kind: AuditKind,
    private readonly name: string,
    readonly identity: Identity,
    private readonly started: number,
    private readonly args: unknown,
    private readonly uri: string | undefined,
  ) {}

  /** Hashed when first needed (the audit event), so a server without an audit sink never pays for it. */
  get argsSha256(): string {
    if (this.hash === undefined) {
      try {
        this.hash = sha256Of(this.args ?? null);
      } catch {
        // Deeply nested or cyclic values: hash their size-bounded string form instead.
        this.hash = sha256Of(String(this.args));
      }
    }
    return this.hash;
  }

  end(outcome: AuditOutcome, extra: CallEnd = {}): void {
    if (this.ended) return;
    this.ended = true;
    const { rt } = this;
    if (!rt.auditing) return;
    const durationMs = Math.max(0, rt.now() - this.started);
    // The default sink builds the event (and hashes the arguments) when it writes its batch, after the
    // response went out; another sink gets it now, with the hash as a getter it may never read.
    if (rt.auditLater) rt.auditLater(() => this.line(outcome, extra, durationMs));
    else rt.audit(this.event(outcome, extra, durationMs));
  }

  /** The event as the default sink writes it: the JSON of the event below, `audit: 'mcp-gen'` first, built directly. */
  private line(outcome: AuditOutcome, extra: CallEnd, durationMs: number): string {
    const q = JSON.stringify;
    const { principal, tenant } = this.identity;
    // time (ISO 8601), kind, outcome and the hex hash never need escaping.
    let line = `{"audit":"mcp-gen","time":"${isoTime(this.started)}","kind":"${this.kind}","name":${q(this.name)},"principal":${q(principal)}`;
    if (tenant !== undefined) line += `,"tenant":${q(tenant)}`;
    line += `,"argsSha256":"${this.argsSha256}","outcome":"${outcome}","durationMs":${q(durationMs)}`;
    if (this.uri !== undefined) line += `,"uri":${q(this.uri)}`;
    if (extra.idempotencyKey !== undefined) line += `,"idempotencyKey":${q(extra.idempotencyKey)}`;
    if (extra.approval !== undefined) line += `,"approval":${q(extra.approval)}`;
    if (extra.reason !== undefined) line += `,"reason":${q(extra.reason.slice(0, 200))}`;
    return `${line}}`;
  }

  private event(outcome: AuditOutcome, extra: CallEnd, durationMs: number): AuditEvent {
    const { kind, name, uri } = this;
    const time = isoTime(this.started);
    const { principal, tenant } = this.identity;
    const call = this;
    const event: { -readonly [K in keyof AuditEvent]: AuditEvent[K] } =
      tenant === undefined
        ? { time, kind, name, principal, get argsSha256() { return call.argsSha256; }, outcome, durationMs }
        : { time, kind, name, principal, tenant, get argsSha256() { return call.argsSha256; }, outcome, durationMs };
    if (uri !== undefined) event.uri = uri;
    if (extra.idempotencyKey !== undefined) event.idempotencyKey = extra.idempotencyKey;
    if (extra.approval !== undefined) event.approval = extra.approval;
    if (extra.reason !== undefined) event.reason = extra.reason.slice(0, 200);
    return event;
  }
}

let lastMs = Number.NaN;
let lastIso = '';
/** ISO 8601 of a millisecond timestamp; calls in the same millisecond share the string. */
function isoTime(ms: number): string {
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}

/** Size of a JSON value in UTF-8 bytes, or Infinity when it cannot be serialized. */
export function jsonBytes(value: unknown): number {
  try {
    return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/**
 * True when the JSON form of `value` has more than `limit` UTF-8 bytes (or cannot be serialised).
 * An upper bound of the size, summed in one walk that stops at the limit, settles ordinary arguments
 * without serialising them; only a value whose bound reaches the limit is measured exactly.
 */
export function exceedsJsonBytes(value: unknown, limit: number): boolean {
  return sizeBound(value, limit, 0) > limit && jsonBytes(value) > limit;
}

/** At least the JSON size of `value` in UTF-8 bytes (a code unit takes at most 6 bytes escaped); past `limit` or 32 levels, Infinity. */
function sizeBound(value: unknown, limit: number, depth: number): number {
  switch (typeof value) {
    case 'string':
      return 6 * value.length + 2;
    case 'number':
    case 'boolean':
      return 24;
    case 'object': {
      if (value === null) return 4;
      if (depth > 32 || typeof (value as { toJSON?: unknown }).toJSON === 'function') return Number.POSITIVE_INFINITY;
      let total = 2;
      if (Array.isArray(value)) {
        for (const item of value) {
          total += sizeBound(item, limit, depth + 1) + 1;
          if (total > limit) return Number.POSITIVE_INFINITY;
        }
        return total;
      }
      for (const key in value) {
        if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
        total += 6 * key.length + 4 + sizeBound((value as Record<string, unknown>)[key], limit, depth + 1);
        if (total > limit) return Number.POSITIVE_INFINITY;
      }
      return total;
    }
    case 'bigint':
      return Number.POSITIVE_INFINITY; // JSON.stringify refuses it: let the exact measurement say so
    default:
      return 4; // undefined, functions and symbols serialise to nothing (or null in arrays)
  }
}
