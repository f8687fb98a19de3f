/**
 * Sessionful serving of 2025-11-25 clients over Streamable HTTP. The SDK's
 * stateless fallback cannot carry notifications, sampling or elicitation, so
 * each `initialize` opens a session with its own server instance and
 * `WebStandardStreamableHTTPServerTransport` (with a bounded event store, so a
 * client that reconnects with `Last-Event-ID` gets what it missed). The host
 * hands in a factory of thin instances over the process's shared registry
 * (`shared.ts`), so a session holds its protocol state, transport, replay
 * history and subscriptions, not a copy of the registrations. Idle sessions
 * expire; `close()` ends them all.
 *
 * A session belongs to the principal that opened it: a request naming it with
 * another caller's token is answered as if the session did not exist (404),
 * DELETE included. Each principal may hold `maxPerPrincipal` sessions; opening
 * one more closes that principal's longest-idle session, never another's.
 *
 * Session ids carry this replica's id (`replica.ts`): a replica that receives
 * a session it does not hold says whether another replica opened it. Resource
 * updates reach a session through the host's change-event bus, from this
 * replica or (with a shared store) any other, and the session's runtime
 * delivers them only for URIs it subscribed to, gated for the subscriber.
 */
import { McpServer, WebStandardStreamableHTTPServerTransport, type AuthInfo, type McpServerFactory, type ServerEventBus } from '@modelcontextprotocol/server';
import { BoundedEventStore } from './eventStore.js';
import { sessionIdFor, unknownSessionResponse } from './replica.js';

import { runtimeOf } from '../context.js';

interface Session {
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly server: unknown;
  /** Who opened the session ({@link sessionOwner}). */
  readonly owner: string;
  lastSeen: number;
}

/** Limits of {@link LegacySessions}. */
export interface LegacySessionLimits {
  /** How long an idle session lives. Default 30 minutes. */
  readonly idleMs?: number;
  /** Open sessions in all. Default 1000. */
  readonly maxSessions?: number;
  /** Open sessions of one principal. Default 32. */
  readonly maxPerPrincipal?: number;
  /** The owner a token stands for. Default {@link sessionOwner}. */
  readonly owner?: (authInfo: AuthInfo | undefined) => string;
  /** This replica's id: it prefixes every session id, so another replica can tell a session is not its own. */
  readonly replica?: string;
  /** The host's change-event bus: resource updates reach the sessions that subscribed. */
  readonly bus?: ServerEventBus;
  /** Receives failures of delivering an update to a session. */
  readonly onerror?: (error: unknown) => void;
}

/**
 * Hands every `resource_updated` event on `bus` (published through this replica or, with a shared store,
 * another) to the session's runtime, which sends it only for a URI the session subscribed to and only if
 * the subscriber may still read it. Subscribed inside the request that opened the session, so the bus
 * files it under that request's tenant.
 */
function forwardUpdates(bus: ServerEventBus, server: McpServer, report: (error: unknown) => void): () => void {
  return bus.subscribe((event) => {
    if (event.kind !== 'resource_updated') return;
    runtimeOf(server)?.deliverResourceUpdated(event.uri, server).catch(report);
  });
}

/**
 * The owner of a session opened with `authInfo`: the token's client, subject and tenant (any of them
 * differing is another caller; a refreshed token of the same caller keeps its sessions). Without
 * authentication every request is the launch principal.
 */
export function sessionOwner(authInfo: AuthInfo | undefined): string {
  if (!authInfo) return 'launch';
  const extra = (authInfo.extra ?? {}) as Record<string, unknown>;
  const claim = (name: string): string => (typeof extra[name] === 'string' ? (extra[name] as string) : '');
  return JSON.stringify(['token', authInfo.clientId, claim('sub'), claim('tenant')]);
}

const jsonError = (status: number, code: number, message: string): Response =>
  Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status });

/** Routes 2025-era HTTP requests to per-session transports. */
export class LegacySessions {
  private readonly sessions = new Map<string, Session>();
  private readonly sweeper: NodeJS.Timeout;
  private readonly idleMs: number;
  private readonly maxSessions: number;
  private readonly maxPerPrincipal: number;
  private readonly owner: (authInfo: AuthInfo | undefined) => string;
  private readonly replica: string;
  private readonly bus: ServerEventBus | undefined;
  private readonly report: (error: unknown) => void;

  constructor(
    private readonly factory: McpServerFactory,
    limits: LegacySessionLimits = {},
  ) {
    this.idleMs = limits.idleMs ?? 30 * 60_000;
    this.maxSessions = limits.maxSessions ?? 1000;
    this.maxPerPrincipal = limits.maxPerPrincipal ?? 32;
    this.owner = limits.owner ?? sessionOwner;
    this.replica = limits.replica ?? 'r-local';
    this.bus = limits.bus;
    this.report = limits.onerror ?? (() => undefined);
    this.sweeper = setInterval(() => void this.expire(), Math.min(this.idleMs, 60_000));
    this.sweeper.unref();
  }

  /** Serves one request: `initialize` opens a session; later requests name theirs in `Mcp-Session-Id`. */
  async handle(request: Request, parsedBody: unknown, authInfo: AuthInfo | undefined): Promise<Response> {
    const options = { parsedBody, ...(authInfo ? { authInfo } : {}) };
    const owner = this.owner(authInfo);
    const id = request.headers.get('mcp-session-id');
    if (id) {
      const session = this.sessions.get(id);
      // Another caller's session is answered exactly like a missing one: its existence is not disclosed.
      if (!session || session.owner !== owner) return unknownSessionResponse(id, this.replica);
      session.lastSeen = Date.now();
      return session.transport.handleRequest(request, options);
    }
    const isInitialize = !Array.isArray(parsedBody) && (parsedBody as { method?: unknown } | undefined)?.method === 'initialize';
    if (!isInitialize) return jsonError(400, -32000, 'Bad Request: no Mcp-Session-Id; send initialize first');
    await this.makeRoom(owner);
    if (this.sessions.size >= this.maxSessions) return jsonError(503, -32000, 'Too many open sessions; try again later');
    const server = await this.factory({ era: 'legacy', ...(authInfo ? { authInfo } : {}) } as Parameters<McpServerFactory>[0]);
    let stopUpdates: (() => void) | undefined;
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => sessionIdFor(this.replica),
      eventStore: new BoundedEventStore(),
      retryInterval: 1000,
      onsessioninitialized: (sid) => void this.sessions.set(sid, { transport, server, owner, lastSeen: Date.now() }),
      onsessionclosed: (sid) => {
        stopUpdates?.();
        this.sessions.delete(sid);
      },
    });
    await server.connect(transport);
    if (this.bus && server instanceof McpServer) {
      stopUpdates = forwardUpdates(this.bus, server, this.report);
      const onclose = transport.onclose;
      transport.onclose = () => {
        stopUpdates?.();
        onclose?.();
      };
    }
    return transport.handleRequest(request, options);
  }

  /**
   * Bounds memory against a flood of `initialize`: the caller's own longest-idle session makes way when it
   * holds its share; expired sessions go when all are taken. Another principal's live session never does.
   */
  private async makeRoom(owner: string): Promise<void> {
    const own = [...this.sessions].filter(([, s]) => s.owner === owner).sort(([, a], [, b]) => a.lastSeen - b.lastSeen);
    for (const [id, s] of own.slice(0, Math.max(0, own.length - this.maxPerPrincipal + 1))) await this.end(id, s);
    if (this.sessions.size >= this.maxSessions) await this.expire();
  }

  /** Open sessions (for tests and diagnostics). */
  get size(): number {
    return this.sessions.size;
  }

  private async end(id: string, session: Session): Promise<void> {
    this.sessions.delete(id);
    await session.transport.close().catch(() => undefined);
  }

  /** Ends sessions idle for longer than `idleMs`. */
  private async expire(): Promise<void> {
    const cutoff = Date.now() - this.idleMs;
    for (const [id, s] of [...this.sessions]) if (s.lastSeen < cutoff) await this.end(id, s);
  }

  /** Ends every session. */
  async close(): Promise<void> {
    clearInterval(this.sweeper);
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map((s) => s.transport.close().catch(() => undefined)));
  }
}
