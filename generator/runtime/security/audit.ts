/**
 * Audit events: one per tool call, resource read and prompt get, whatever the
 * outcome (refusals included), so a reviewer can reconstruct who did what.
 * Arguments are never logged, only their sha256: the log must not become a
 * second copy of customer data.
 */
import type { TextSink } from '../errors.js';

/** How a call ended. */
export type AuditOutcome =
  | 'ok'
  | 'error'
  | 'forbidden'
  | 'invalid'
  | 'too_large'
  | 'timeout'
  | 'replayed'
  | 'conflict'
  | 'in_progress'
  | 'capacity'
  | 'approval_required'
  | 'approval_refused'
  | 'not_found';

/**
 * What an event is about: a tool call, resource read or prompt get, or a request refused before any of
 * them ran (a completion, a subscription, a forged `requestState`, a name the server does not serve, a
 * request whose shape the SDK refused).
 */
export type AuditKind = 'tool' | 'resource' | 'prompt' | 'completion' | 'subscription' | 'request';

/** One structured audit event. */
export interface AuditEvent {
  /** ISO 8601 time the call started. */
  readonly time: string;
  readonly kind: AuditKind;
  readonly name: string;
  readonly principal: string;
  readonly tenant?: string;
  /** sha256 of the canonical JSON of the arguments (tool input, resource URI, prompt arguments). */
  readonly argsSha256: string;
  readonly outcome: AuditOutcome;
  readonly durationMs: number;
  readonly idempotencyKey?: string;
  /** The approval receipt, or `elicitation` when the user confirmed through the client. */
  readonly approval?: string;
  /** Resource URI for reads. */
  readonly uri?: string;
  /** Short reason for a refusal. */
  readonly reason?: string;
}

/** Receives audit events; may be async (its promise is not awaited by the call, failures are reported). */
export type AuditSink = (event: AuditEvent) => void | Promise<void>;

/** The default sink: one JSON line per event on `sink` (stderr), never on stdout. */
export function jsonLinesAudit(sink: TextSink): AuditSink {
  // One sink per stream for the whole process: the HTTP host builds a server (and a runtime) per request.
  let shared = sinks.get(sink);
  if (!shared) {
    shared = batchedLines(sink);
    sinks.set(sink, shared);
  }
  return shared;
}

const sinks = new WeakMap<TextSink, AuditSink>();

/** An event's JSON line (without the newline), built when the batch is written, off the request's path. */
export type DeferredLine = () => string;
/** The sinks made by {@link jsonLinesAudit}, which also take deferred events. */
const deferring = new WeakMap<AuditSink, (build: DeferredLine) => void>();

/** How to hand `sink` an event built later, when it can take one (the default sink); undefined otherwise. */
export function deferredAudit(sink: AuditSink): ((build: DeferredLine) => void) | undefined {
  return deferring.get(sink);
}

/**
 * Flushes of the sinks that hold unwritten events. One exit listener serves them all, and a sink is listed
 * only while it has pending events: a listener per sink would pile up (a server per test, per tenant or per
 * request each makes one) and keep every idle sink alive.
 */
const unflushed = new Set<() => void>();
let exitHooked = false;

function flushOnExit(flush: () => void): void {
  unflushed.add(flush);
  if (exitHooked) return;
  exitHooked = true;
  process.once('exit', () => {
    for (const f of [...unflushed]) f();
  });
}

function batchedLines(sink: TextSink): AuditSink {
  // Events are serialised and written in batches once the current burst of work is done: one write per
  // burst instead of one synchronous write per call, and building and serialising them (argument hashes
  // included) happens after the responses went out. The process exit flushes whatever is pending.
  let pending: (AuditEvent | DeferredLine)[] = [];
  const flush = (): void => {
    unflushed.delete(flush);
    if (pending.length === 0) return;
    const events = pending;
    pending = [];
    let text = '';
    for (const item of events) {
      if (typeof item === 'function') {
        text += `${item()}\n`;
        continue;
      }
      const body = JSON.stringify(item);
      text += body.length > 2 ? `{"audit":"mcp-gen",${body.slice(1)}\n` : '{"audit":"mcp-gen"}\n';
    }
    sink.write(text);
  };
  const add = (item: AuditEvent | DeferredLine): void => {
    if (pending.length === 0) {
      setImmediate(flush);
      flushOnExit(flush);
    }
    pending.push(item);
  };
  const audit: AuditSink = (event) => add(event);
  deferring.set(audit, add);
  return audit;
}
