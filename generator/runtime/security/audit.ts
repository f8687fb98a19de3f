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
  | 'approval_required'
  | 'approval_refused';

/** One structured audit event. */
export interface AuditEvent {
  /** ISO 8601 time the call started. */
  readonly time: string;
  readonly kind: 'tool' | 'resource' | 'prompt';
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

function batchedLines(sink: TextSink): AuditSink {
  // Events are serialised and written in batches once the current burst of work is done: one write per
  // burst instead of one synchronous write per call, and the serialising happens after the responses
  // went out. The process exit flushes whatever is pending.
  let pending: AuditEvent[] = [];
  const flush = (): void => {
    if (pending.length === 0) return;
    const events = pending;
    pending = [];
    let text = '';
    for (const event of events) {
      const body = JSON.stringify(event);
      text += body.length > 2 ? `{"audit":"mcp-gen",${body.slice(1)}\n` : '{"audit":"mcp-gen"}\n';
    }
    sink.write(text);
  };
  process.once('exit', flush);
  return (event) => {
    if (pending.length === 0) setImmediate(flush);
    pending.push(event);
  };
}
