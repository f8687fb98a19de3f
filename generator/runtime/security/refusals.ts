/**
 * Audit for requests refused before any gated callback ran: a tool, prompt or
 * resource the server does not serve, or a request whose shape the SDK refused
 * (`arguments: "text"`, a missing `name`). The callbacks audit everything they
 * see; this wraps the SDK's own handlers of the gated methods so that what the
 * SDK answers by itself leaves an event too.
 */
import { ProtocolError, ProtocolErrorCode, type McpServer, type ServerContext } from '@modelcontextprotocol/server';
import type { Runtime } from '../context.js';
import type { AuditKind, AuditOutcome } from './audit.js';
import { auditRefusal, wasAudited } from './call.js';

type StoredHandler = (request: unknown, ctx: ServerContext) => Promise<Record<string, unknown>>;

/** The gated methods, what their events are about, and where the request names its target. */
const METHODS: readonly { method: string; kind: AuditKind; name: (params: Record<string, unknown>) => unknown }[] = [
  { method: 'tools/call', kind: 'tool', name: (p) => p['name'] },
  { method: 'prompts/get', kind: 'prompt', name: (p) => p['name'] },
  { method: 'resources/read', kind: 'resource', name: (p) => p['uri'] },
];

/** `not_found` for an unknown target, `invalid` for a refused shape. */
function outcomeOf(error: unknown): { outcome: AuditOutcome; reason: string } {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  const notFound = code === -32002 || /not found/i.test(message);
  return { outcome: notFound ? 'not_found' : 'invalid', reason: message };
}

/**
 * Wraps the dispatched handler of each gated method with the refusal audit. Call after every registration.
 * The wrapper sits outside the SDK's own request validation (the entry of its private handler map), so a
 * request whose shape the SDK refuses is seen too; an SDK without that map keeps its handlers unwrapped.
 */
export function auditUnhandledRefusals(server: McpServer, rt: Runtime): void {
  if (!rt.auditing) return;
  const inner = server.server as unknown as { _requestHandlers?: unknown; fallbackRequestHandler?: unknown };
  // A method the server does not serve at all: answered -32601 as before, and audited.
  if (inner.fallbackRequestHandler === undefined) {
    inner.fallbackRequestHandler = async (request: { method?: unknown }, ctx: ServerContext) => {
      const method = typeof request?.method === 'string' ? request.method.slice(0, 200) : '(none)';
      auditRefusal(rt, ctx, 'request', method, 'not_found', 'Method not found');
      throw new ProtocolError(ProtocolErrorCode.MethodNotFound, 'Method not found');
    };
  }
  const handlers = inner._requestHandlers;
  if (!(handlers instanceof Map)) return;
  for (const { method, kind, name } of METHODS) {
    const original = handlers.get(method) as StoredHandler | undefined;
    if (!original) continue;
    handlers.set(method, async (request: unknown, ctx: ServerContext) => {
      const params = ((request as { params?: unknown } | null)?.params ?? {}) as Record<string, unknown>;
      const target = typeof params === 'object' && params !== null ? name(params) : undefined;
      const label = typeof target === 'string' ? target.slice(0, 200) : '(none)';
      try {
        const result = await original(request, ctx);
        // The SDK answers an unknown tool with an isError result of its own, before any callback.
        if (!wasAudited(ctx) && result['isError'] === true) auditRefusal(rt, ctx, kind, label, 'not_found', textOf(result));
        return result;
      } catch (error) {
        if (!wasAudited(ctx)) {
          const { outcome, reason } = outcomeOf(error);
          auditRefusal(rt, ctx, kind, label, outcome, reason);
        }
        throw error;
      }
    });
  }
}

function textOf(result: Record<string, unknown>): string {
  const content = Array.isArray(result['content']) ? (result['content'] as { text?: unknown }[]) : [];
  return content.map((c) => (typeof c.text === 'string' ? c.text : '')).join(' ') || 'refused';
}
