/**
 * Audit for requests refused before any gated callback ran: a tool, prompt or
 * resource the server does not serve, or a request whose shape the SDK refused
 * (`arguments: "text"`, a missing `name`). The callbacks audit everything they
 * see; this wraps the SDK's own handlers of the gated methods so that what the
 * SDK answers by itself leaves an event too.
 */
import type { AuthInfo, McpServer, ServerContext } from '@modelcontextprotocol/server';
import type { Runtime } from '../context.js';
import type { AuditKind, AuditOutcome } from './audit.js';
import { auditRefusal, wasAudited } from './call.js';

type StoredHandler = (request: unknown, ctx: ServerContext) => Promise<Record<string, unknown>>;
type OnRequest = (request: unknown, extra?: { authInfo?: AuthInfo }) => void;

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
  const inner = server.server as unknown as { _requestHandlers?: unknown; _onrequest?: OnRequest };
  const handlers = inner._requestHandlers;
  if (!(handlers instanceof Map)) return;
  // A method the server does not serve at all: audited as it arrives, then answered by the SDK as before
  // (-32601; over 2026-era HTTP with 404, which the SDK can only give while no handler takes the request,
  // so this is not a fallback handler).
  const dispatch = inner._onrequest;
  if (typeof dispatch === 'function') {
    inner._onrequest = function (this: unknown, request, extra) {
      const method = (request as { method?: unknown } | null)?.method;
      if (typeof method === 'string' && !handlers.has(method)) {
        const sdk = extra?.authInfo ? ({ http: { authInfo: extra.authInfo } } as unknown as ServerContext) : undefined;
        auditRefusal(rt, sdk, 'request', method.slice(0, 200), 'not_found', 'Method not found');
      }
      return dispatch.call(this, request, extra);
    };
  }
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
