/**
 * Streamable HTTP hosting on `node:http`, behind the Host and Origin checks the
 * SDK leaves to us (DNS-rebinding protection), mounted through a small
 * Node ↔ fetch adapter. 2026-07-28 requests go to the direct lane
 * (`modernLane.ts`: pooled instances on the SDK's dispatch, no web objects) when
 * the SDK entry would serve them as they are, and to `createMcpHandler` otherwise;
 * 2025-11-25 clients get sessions (`legacySessions.ts`), so notifications,
 * sampling and elicitation reach them.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  McpServer,
  createMcpHandler,
  hostHeaderValidationResponse,
  isJsonContentType,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  originValidationResponse,
  validateHostHeader,
  validateOriginHeader,
  type AuthInfo,
  type McpHttpHandler,
  type McpServerFactory,
} from '@modelcontextprotocol/server';
import { httpNotifiers, runtimeOf, type Runtime } from '../context.js';
import { bearerGate, type BearerGate, type HttpAuthOptions } from './auth.js';
import { gateListen, gatedBus } from './listenGate.js';
import { missingForRequest } from './scopeChallenge.js';
import { LegacySessions } from './legacySessions.js';
import { DEFAULT_MAX_IDLE_INSTANCES, reusingFactory } from './reuse.js';
import type { TextSink } from '../errors.js';
import type { SharedStore } from '../store/types.js';
import { identityFromToken } from '../options.js';
import { Drain, drainingResponse, type Ticket } from './drain.js';
import { Exchanges } from './exchanges.js';
import { isLegacyEra } from './era.js';
import { readNodeBody, sendResponse, toRequest, urlOf, withSignal } from './nodeAdapter.js';
import { FleetEventBus, runAsTenant } from './events.js';
import { healthResponse } from './health.js';
import { replicaId } from './replica.js';
import { sharingFactory } from '../shared.js';
import { switchesOf } from '../toggle.js';
import { LANE_KEEP_ALIVE_MS, ModernLane, laneRoute } from './modernLane.js';

export type { HttpAuthOptions } from './auth.js';

/** Options for {@link startHttpServer}. */
export interface HttpHostOptions {
  /** TCP port; 0 picks a free one. Default 3000. */
  port?: number;
  /** Interface to bind. Default 127.0.0.1 (never all interfaces by accident). */
  host?: string;
  /** Extra host names accepted in `Host` and `Origin`, on top of localhost. */
  allowedHosts?: readonly string[];
  /** Endpoint path. Default `/mcp`. */
  path?: string;
  /** Where the listening URL and errors are written. Default stderr. */
  stderr?: TextSink;
  /** Bearer-token verification. Without it, requests carry no identity (the launch principal applies). */
  auth?: HttpAuthOptions;
  /** Allow binding a non-loopback interface without `auth`. Default false: refused at start-up. */
  allowUnauthenticated?: boolean;
  /** Largest accepted request body in bytes. Default 4 MiB. */
  maxBodyBytes?: number;
  /** How long an idle 2025-era session lives. Default 30 minutes. */
  sessionIdleMs?: number;
  /**
   * How connections get a server instance. `reuse` (default): the factory is called once, at start-up,
   * and its registrations are shared by every 2025 session and 2026 request of the process, each served
   * by a thin instance of its own (`shared.ts`); a 2026 instance whose exchange has finished serves the next
   * request. The caller's identity is read from each request by the runtime, never from the factory's
   * context. `per-request`: the factory builds an instance for every 2026 request and 2025 session (with
   * its `authInfo`), for factories that build per-caller state; primitives cannot be switched off then.
   */
  instances?: 'reuse' | 'per-request';
  /** Primitives switched off from the start (`tool:NAME`, `resource:NAME`, `prompt:NAME` or a bare NAME); see `disable`. */
  disable?: readonly string[];
  /** Most idle instances kept for reuse. Default 64. */
  maxIdleInstances?: number;
  /** 2025-era sessions one principal may hold open; one more closes its own longest-idle. Default 32. */
  maxSessionsPerPrincipal?: number;
  /**
   * Who owns a 2025-era session opened with a token: only requests whose token maps to the same owner may
   * use it. Default: the token's client id, `sub` and `tenant` (`sessionOwner`); set it when your
   * `identify` takes the principal from other claims.
   */
  sessionOwner?: (authInfo: AuthInfo | undefined) => string;
  /**
   * The store replicas share: with it, change events reach `subscriptions/listen` streams on every
   * replica (the same store goes to `createServer` for the gates). Default: this process only.
   */
  store?: SharedStore;
  /** The tenant of requests without a token (the launch tenant, `MCP_TENANT`). */
  tenant?: string;
  /** The tenant of a verified token, which scopes change events. Default: the `tenant` claim (as `identityFromToken`). */
  tenantOf?: (auth: AuthInfo) => string | undefined;
  /** This replica's id, in 2025 session ids and health output. Default `MCP_REPLICA_ID` or a random one. */
  replicaId?: string;
  /** Path of the health endpoint for load balancers (GET, no authentication). Default `/healthz`. */
  healthPath?: string;
  /** How long `close()` waits for calls in flight before ending them. Default 10 s. */
  drainTimeoutMs?: number;
  /**
   * Serve plain 2026-07-28 requests on the direct lane (pooled instances on the SDK's dispatch, answered
   * without web `Request`/`Response` objects; see docs/deploy.md). Default true; false sends every 2026
   * request through the SDK's `createMcpHandler`. Needs `instances: 'reuse'`.
   */
  directLane?: boolean;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/** A running HTTP server. */
export interface HttpServerHandle {
  /** The endpoint URL, e.g. `http://127.0.0.1:3000/mcp`. */
  readonly url: string;
  /**
   * Publishes a resource update to open 2026 `subscriptions/listen` streams and subscribed 2025 sessions,
   * on every replica: of `tenant` only, or of every tenant when none is given; each stream and session
   * applies its subscriber's gates (scopes, `authorize`) before sending.
   */
  notifyResourceUpdated(uri: string, tenant?: string): void;
  /** This replica's id. */
  readonly replicaId: string;
  /** The SDK handler, for anything else (`notify`, `bus`). */
  readonly handler: McpHttpHandler;
  /**
   * Switches a primitive off for every connection of this process (`tool:NAME`, `resource:NAME`,
   * `prompt:NAME`, or a bare NAME only one primitive has): it leaves every listing and is refused as
   * unknown; the kind's list-changed notification goes out where `listChanged` is declared. False when it
   * was off already; an unknown or ambiguous entry throws. Other replicas are not switched.
   */
  disable(entry: string): boolean;
  /** Switches a primitive back on, in its place in the listings; false when it was not off. */
  enable(entry: string): boolean;
  /** The primitives switched off now, as `kind:name`. */
  disabled(): string[];
  /**
   * Graceful stop: the health endpoint turns 503 and new requests are refused, calls in flight
   * finish (up to `drainTimeoutMs`), then open streams and connections are closed.
   */
  close(): Promise<void>;
}

/**
 * Reads a POST body once from the Node request (bounded), so the era can be decided from it and both
 * routes get it parsed. Both SDK entries take the parsed body as given, so the request stays bodyless;
 * only a body that is not JSON travels as bytes, for the SDK to answer its parse error. Other methods
 * pass through untouched. A body over the bound is answered 413 without reading the rest, and the
 * connection closes after the answer.
 */
async function readBody(request: Request, req: IncomingMessage, max: number): Promise<{ request: Request; parsedBody: unknown } | Response> {
  if (request.method !== 'POST') return { request, parsedBody: undefined };
  const body = await readPostBody(req, max);
  return body instanceof Response ? body : withBody(request, body);
}

/** A POST body read whole: its JSON value, or its bytes when it is not JSON. */
type PostBody = { readonly parsed: unknown } | { readonly bytes: Buffer };

/** Reads and parses a POST body, bounded by `max` (413 over it). */
async function readPostBody(req: IncomingMessage, max: number): Promise<PostBody | Response> {
  const read = await readNodeBody(req, max);
  if ('tooLarge' in read) {
    return Response.json({ jsonrpc: '2.0', error: { code: -32600, message: `Request body exceeds ${max} bytes` }, id: null }, { status: 413, headers: { connection: 'close' } });
  }
  try {
    return { parsed: JSON.parse(read.bytes.toString('utf8')) as unknown };
  } catch {
    return { bytes: read.bytes };
  }
}

/** The bodyless `request` with its parsed body, or carrying the bytes that are not JSON (the SDK answers their parse error). */
function withBody(request: Request, body: PostBody): { request: Request; parsedBody: unknown } {
  if ('parsed' in body) return { request, parsedBody: body.parsed };
  return { request: new Request(request.url, { method: 'POST', headers: request.headers, body: new Uint8Array(body.bytes) }), parsedBody: undefined };
}

/** A header as one string (a repeated one is left to the SDK entry). */
const headerOf = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
};

/** Remembers the verdicts of the Host and Origin checks by header value (a client sends the same ones every time). */
function headerVerdicts(check: (value: string | undefined) => boolean): (value: string | undefined) => boolean {
  const known = new Map<string | undefined, boolean>();
  return (value) => {
    let ok = known.get(value);
    if (ok === undefined) {
      ok = check(value);
      if (known.size >= 256) known.clear();
      known.set(value, ok);
    }
    return ok;
  };
}

/**
 * Idle keep-alive connections stay open for 65 s (Node's default is 5 s). A reverse proxy or load
 * balancer reuses its idle upstream connections for up to 60 s (nginx `keepalive_timeout`, cloud
 * balancers' idle timeout); when the server closes first, a request the proxy sends on a connection
 * closing at that moment fails with 502 and, not being retried, reaches the client.
 */
function keepIdleConnectionsOpen(server: ReturnType<typeof createServer>): void {
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
}

/** Long-lived streams are not calls: shutdown closes them instead of waiting (2025 GET streams, 2026 listen). */
function isStream(request: Request, parsedBody: unknown): boolean {
  if (request.method === 'GET') return true;
  return !Array.isArray(parsedBody) && (parsedBody as { method?: unknown } | undefined)?.method === 'subscriptions/listen';
}

/**
 * A runtime of this server for gates that run before dispatch (the manifest's catalog, the token →
 * identity mapping): built once from a throwaway instance, the first time it is needed.
 */
function probeRuntime(factory: McpServerFactory, report: (error: Error) => void): () => Promise<Runtime | undefined> {
  let found: Promise<Runtime | undefined> | undefined;
  const build = async (): Promise<Runtime | undefined> => {
    const product = await factory({ era: 'modern' } as Parameters<McpServerFactory>[0]);
    const rt = product instanceof McpServer ? runtimeOf(product) : undefined;
    await product.close().catch(() => undefined);
    return rt;
  };
  return () =>
    (found ??= build().catch((error: unknown) => {
      // Without a probe the 403 challenge is skipped; the in-protocol scope gates still refuse. Try again next time.
      found = undefined;
      report(error instanceof Error ? error : new Error(String(error)));
      return undefined;
    }));
}

/** The 403 `insufficient_scope` answer when the token lacks a scope the request's target declares. */
async function scopeChallenge(gate: BearerGate, rt: Runtime | undefined, body: unknown, auth: AuthInfo): Promise<Response | undefined> {
  if (!rt) return undefined;
  // A primitive switched off is one the server does not have: it needs no scope (a challenge would reveal it).
  const missing = missingForRequest(rt.catalog, body, rt.identifyAuth(auth), (kind, name) => !rt.isDisabled(kind, name));
  return missing.length === 0 ? undefined : gate.insufficientScope(missing, `This request requires scope ${missing.join(' ')}, which the access token was not granted.`);
}

/** One HTTP request being served, and what ends it when its client goes away first. */
interface Pending {
  readonly req: IncomingMessage;
  readonly ticket: Ticket;
  /** The client closed the connection before the answer was written. */
  gone: boolean;
  /** The abort of a stream's request (only streams carry a signal). */
  controller?: AbortController;
  /** The web request handed to the SDK. */
  request?: Request;
}

/** A stream outlives the call that opened it: it is not waited for at shutdown, and it ends by its signal. */
function streamRequest(request: Request, pending: Pending): Request {
  pending.ticket.detach();
  const controller = new AbortController();
  pending.controller = controller;
  if (pending.gone) controller.abort();
  return withSignal(request, controller.signal);
}

/**
 * Starts Streamable HTTP on `path`. Requests whose Host or Origin is not
 * localhost (or listed in `allowedHosts`) get 403 before reaching the SDK.
 */
export async function startHttpServer(factory: McpServerFactory, options: HttpHostOptions = {}): Promise<HttpServerHandle> {
  const stderr = options.stderr ?? process.stderr;
  const path = options.path ?? '/mcp';
  const hosts = [...localhostAllowedHostnames(), ...(options.allowedHosts ?? [])];
  const origins = [...localhostAllowedOrigins(), ...(options.allowedHosts ?? [])];
  const bindHost = options.host ?? '127.0.0.1';
  if (!options.auth && !options.allowUnauthenticated && !LOOPBACK.has(bindHost)) {
    throw new Error(`refusing to serve ${bindHost} without authentication: configure a token verifier (auth) or allowUnauthenticated`);
  }
  const maxBody = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const replica = options.replicaId ?? replicaId();
  const onerror = (error: Error): void => void stderr.write(`[mcp-gen] http: ${error.message}\n`);
  const report = (error: unknown): void => onerror(error instanceof Error ? error : new Error(String(error)));
  // One bus for the endpoint: tenant-scoped and fleet-wide (FleetEventBus), with each 2026 listen stream
  // gated for the caller that opened it (gatedBus); 2025 sessions listen on the same fleet bus.
  const bus = new FleetEventBus(options.store, onerror);
  // One registry for the process; every session and request gets a thin instance of it.
  const sharing = options.instances === 'per-request' ? undefined : sharingFactory(factory, { http: true });
  const registry = await sharing?.ready();
  const served = sharing?.factory ?? factory;
  const switches = switchesOf(() => registry);
  for (const entry of options.disable ?? []) switches.disable(entry);
  const legacy = new LegacySessions(served, {
    ...(options.sessionIdleMs === undefined ? {} : { idleMs: options.sessionIdleMs }),
    ...(options.maxSessionsPerPrincipal === undefined ? {} : { maxPerPrincipal: options.maxSessionsPerPrincipal }),
    ...(options.sessionOwner === undefined ? {} : { owner: options.sessionOwner }),
    replica,
    bus,
    onerror: report,
  });
  await bus.start();
  const drain = new Drain();
  const healthPath = options.healthPath ?? '/healthz';
  const tenantOf = options.tenantOf ?? ((auth: AuthInfo) => identityFromToken(auth).tenant);
  const exchanges = new Exchanges();
  const modern = exchanges.track(options.instances === 'per-request' ? factory : reusingFactory(served, options.maxIdleInstances ?? DEFAULT_MAX_IDLE_INSTANCES));
  const handler = createMcpHandler(modern, { legacy: 'reject', maxRequestBodySize: maxBody, onerror, bus: gatedBus(onerror, bus), keepAliveMs: LANE_KEEP_ALIVE_MS });
  const lane = registry && options.directLane !== false ? await ModernLane.open(served, { maxIdle: options.maxIdleInstances ?? DEFAULT_MAX_IDLE_INSTANCES, keepAliveMs: LANE_KEEP_ALIVE_MS, onerror }) : undefined;
  const hostAllowed = headerVerdicts((value) => validateHostHeader(value, hosts).ok);
  const originAllowed = headerVerdicts((value) => validateOriginHeader(value, origins).ok);
  /** A POST to the endpoint's exact path whose Host and Origin pass: the lane may take it. */
  const laneCandidate = (req: IncomingMessage): boolean =>
    lane !== undefined && req.method === 'POST' && (req.url === path || req.url?.startsWith(`${path}?`) === true) && hostAllowed(headerOf(req, 'host')) && originAllowed(req.headers.origin);
  let gate: BearerGate | undefined;
  const probe = registry ? async (): Promise<Runtime> => registry.rt : probeRuntime(factory, onerror);
  const server = createServer((req, res) => void respond(req, res));
  const respond = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      if (!drain.isDraining && laneCandidate(req)) {
        await direct(req, res, enter(req, res));
        return;
      }
      const target = urlOf(req);
      const pathname = target.pathname;
      if (pathname === healthPath && (req.method === 'GET' || req.method === 'HEAD')) {
        await sendResponse(await healthResponse({ replica, draining: drain.isDraining, inFlight: drain.inFlight, ...(options.store ? { store: options.store } : {}) }), res);
        return;
      }
      if (drain.isDraining) {
        await sendResponse(drainingResponse(), res);
        return;
      }
      await sendResponse(await route(toRequest(req, target), pathname, enter(req, res)), res);
    } catch (error) {
      if (res.destroyed && !res.writableFinished) return; // the client went away: nobody to answer
      stderr.write(`[mcp-gen] http: ${error instanceof Error ? error.message : String(error)}\n`);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end();
    }
  };
  /** Records a request being served until its response closes; a client gone first ends what serves it. */
  const enter = (req: IncomingMessage, res: ServerResponse): Pending => {
    const pending: Pending = { req, ticket: drain.enter(), gone: false };
    res.once('close', () => {
      pending.ticket.leave();
      if (res.writableFinished) return;
      pending.gone = true;
      pending.controller?.abort();
      if (pending.request) exchanges.abort(pending.request);
    });
    return pending;
  };
  /**
   * A POST the lane may take (Host and Origin passed): authenticated and read as the endpoint does, then
   * served on the lane when `laneRoute` accepts it, else handed to the same steps as any other request.
   */
  const direct = async (req: IncomingMessage, res: ServerResponse, pending: Pending): Promise<void> => {
    const url = (): URL => urlOf(req);
    const auth = gate ? await gate.authenticate(headerOf(req, 'authorization')) : undefined;
    if (auth instanceof Response) return sendResponse(auth, res);
    const body = await readPostBody(req, maxBody);
    if (body instanceof Response) return sendResponse(body, res);
    const message = 'parsed' in body && isJsonContentType(headerOf(req, 'content-type')) ? laneRoute(req.headers, body.parsed) : undefined;
    if (message !== undefined) {
      const challenge = auth && gate?.challengesScopes ? await scopeChallenge(gate, await probe(), message, auth) : undefined;
      if (challenge) return sendResponse(challenge, res);
      if (pending.gone) return;
      if (await runAsTenant(auth ? tenantOf(auth) : options.tenant, () => lane!.serve(message, req, res, url, auth))) return;
    }
    // Not for the lane, or refused by its dispatch before any handler ran: the SDK entry answers.
    const read = withBody(toRequest(req, url()), body);
    return sendResponse(await dispatch(read.request, read.parsedBody, auth, pending), res);
  };
  // Host first on every path (DNS rebinding); the metadata document is public, the endpoint also checks Origin.
  const route = async (request: Request, pathname: string, pending: Pending): Promise<Response> => {
    const hostRefusal = hostHeaderValidationResponse(request, hosts);
    if (hostRefusal) return hostRefusal;
    const metadata = await gate?.metadata(request);
    if (metadata) return metadata;
    if (pathname !== path) return new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain' } });
    return originValidationResponse(request, origins) ?? (await serve(request, pending));
  };
  // Authentication after Host/Origin: a rebinding page must not even learn whether a token is valid.
  const serve = async (incoming: Request, pending: Pending): Promise<Response> => {
    const auth = gate ? await gate.authenticate(incoming.headers.get('authorization') ?? undefined) : undefined;
    if (auth instanceof Response) return auth;
    const read = await readBody(incoming, pending.req, maxBody);
    if (read instanceof Response) return read;
    return dispatch(read.request, read.parsedBody, auth, pending);
  };
  /** The steps after authentication and the body: streams, the scope challenge, then the era's entry. */
  const dispatch = async (read: Request, parsedBody: unknown, auth: AuthInfo | undefined, pending: Pending): Promise<Response> => {
    const request = isStream(read, parsedBody) ? streamRequest(read, pending) : read;
    pending.request = request;
    const challenge = auth && gate?.challengesScopes ? await scopeChallenge(gate, await probe(), parsedBody, auth) : undefined;
    if (challenge) return challenge;
    return runAsTenant(auth ? tenantOf(auth) : options.tenant, async () => {
      if (await isLegacyEra(request, parsedBody)) return legacy.handle(request, parsedBody, auth);
      if (pending.gone) return new Response(null, { status: 499 });
      try {
        return await gateListen(served, parsedBody, auth, () => handler.fetch(request, { ...(parsedBody === undefined ? {} : { parsedBody }), ...(auth ? { authInfo: auth } : {}) }));
      } finally {
        exchanges.done(request);
      }
    });
  };
  keepIdleConnectionsOpen(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 3000, bindHost, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // A handler's update (published inside its request, so under its tenant) reaches 2026 listen streams and
  // 2025 sessions through the bus, on every replica; each applies its own gates.
  const resourceUpdated = (uri: string): void => handler.notify.resourceUpdated(uri);
  const notifier = { resourceUpdated };
  httpNotifiers.add(notifier);
  // A primitive switched off or on: 2026 listen streams hear it through the endpoint's bus (2025 sessions directly).
  const listChanged = (kind: 'tool' | 'resource' | 'prompt'): void => {
    if (kind === 'tool') handler.notify.toolsChanged();
    else if (kind === 'prompt') handler.notify.promptsChanged();
    else handler.notify.resourcesChanged();
  };
  registry?.rt.listChangedHooks.add(listChanged);
  const address = server.address() as AddressInfo;
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${hostPart}:${address.port}${path}`;
  if (options.auth) gate = bearerGate(options.auth, new URL(url), async () => (await probe())?.catalog.scopes ?? [], (line) => void stderr.write(`[mcp-gen] http: ${line}\n`));
  stderr.write(`[mcp-gen] listening on ${url}${options.auth ? ' (bearer tokens required)' : ' (no authentication: every request is the launch principal)'}\n`);
  let closing: Promise<void> | undefined;
  const close = async (): Promise<void> => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const finished = await drain.start(options.drainTimeoutMs ?? 10_000);
    if (!finished) stderr.write(`[mcp-gen] http: ${drain.inFlight} call(s) still running after the drain timeout; ending them\n`);
    httpNotifiers.delete(notifier);
    registry?.rt.listChangedHooks.delete(listChanged);
    await legacy.close();
    await lane?.close();
    await handler.close();
    await bus.close();
    server.closeAllConnections();
    await closed;
  };
  return {
    url,
    handler,
    replicaId: replica,
    ...switches,
    notifyResourceUpdated: (uri, tenant) => (tenant === undefined ? bus.publishToAll({ kind: 'resource_updated', uri }) : bus.publishFor(tenant, { kind: 'resource_updated', uri })),
    close: () => (closing ??= close()),
  };
}
