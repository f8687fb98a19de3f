/**
 * Sessionful serving of 2025-11-25 clients over Streamable HTTP. The SDK's
 * stateless fallback cannot carry notifications, sampling or elicitation, so
 * each `initialize` opens a session with its own server instance and
 * `WebStandardStreamableHTTPServerTransport` (with a bounded event store, so a
 * client that reconnects with `Last-Event-ID` gets what it missed). Idle sessions
 * expire; `close()` ends them all.
 */
import { randomUUID } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport, type AuthInfo, type McpServerFactory } from '@modelcontextprotocol/server';
import { BoundedEventStore } from './eventStore.js';

interface Session {
  readonly transport: WebStandardStreamableHTTPServerTransport;
  lastSeen: number;
}

const jsonError = (status: number, code: number, message: string): Response =>
  Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status });

/** Routes 2025-era HTTP requests to per-session transports. */
export class LegacySessions {
  private readonly sessions = new Map<string, Session>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly factory: McpServerFactory,
    private readonly idleMs = 30 * 60_000,
    private readonly maxSessions = 1000,
  ) {
    this.sweeper = setInterval(() => void this.expire(), Math.min(idleMs, 60_000));
    this.sweeper.unref();
  }

  /** Serves one request: `initialize` opens a session; later requests name theirs in `Mcp-Session-Id`. */
  async handle(request: Request, parsedBody: unknown, authInfo: AuthInfo | undefined): Promise<Response> {
    const options = { parsedBody, ...(authInfo ? { authInfo } : {}) };
    const id = request.headers.get('mcp-session-id');
    if (id) {
      const session = this.sessions.get(id);
      if (!session) return jsonError(404, -32001, 'Session not found: start a new one with initialize');
      session.lastSeen = Date.now();
      return session.transport.handleRequest(request, options);
    }
    const isInitialize = !Array.isArray(parsedBody) && (parsedBody as { method?: unknown } | undefined)?.method === 'initialize';
    if (!isInitialize) return jsonError(400, -32000, 'Bad Request: no Mcp-Session-Id; send initialize first');
    // A bound on open sessions keeps a flood of initialize requests from exhausting memory.
    if (this.sessions.size >= this.maxSessions) await this.expire(true);
    if (this.sessions.size >= this.maxSessions) return jsonError(503, -32000, 'Too many open sessions; try again later');
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: new BoundedEventStore(),
      retryInterval: 1000,
      onsessioninitialized: (sid) => void this.sessions.set(sid, { transport, lastSeen: Date.now() }),
      onsessionclosed: (sid) => void this.sessions.delete(sid),
    });
    const server = await this.factory({ era: 'legacy', ...(authInfo ? { authInfo } : {}) } as Parameters<McpServerFactory>[0]);
    await server.connect(transport);
    return transport.handleRequest(request, options);
  }

  /** Open sessions (for tests and diagnostics). */
  get size(): number {
    return this.sessions.size;
  }

  /** Ends sessions idle for longer than `idleMs` (with `oldest`, also the longest-idle tenth when full). */
  private async expire(oldest = false): Promise<void> {
    const cutoff = Date.now() - this.idleMs;
    const byAge = [...this.sessions].sort(([, a], [, b]) => a.lastSeen - b.lastSeen);
    const evict = new Set(oldest ? byAge.slice(0, Math.ceil(this.maxSessions / 10)).map(([id]) => id) : []);
    for (const [id, s] of byAge) {
      if (s.lastSeen >= cutoff && !evict.has(id)) continue;
      this.sessions.delete(id);
      await s.transport.close().catch(() => undefined);
    }
  }

  /** Ends every session. */
  async close(): Promise<void> {
    clearInterval(this.sweeper);
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map((s) => s.transport.close().catch(() => undefined)));
  }
}
