/**
 * Streamable HTTP hosting on `node:http`, behind the Host and Origin checks the
 * SDK leaves to us (DNS-rebinding protection), mounted through a small
 * Node ↔ fetch adapter. 2026-07-28 requests go to `createMcpHandler` (a server
 * instance per request); 2025-11-25 clients get sessions (`legacySessions.ts`),
 * so notifications, sampling and elicitation reach them.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import {
  createMcpHandler,
  hostHeaderValidationResponse,
  isLegacyRequest,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  originValidationResponse,
  requireBearerAuth,
  type AuthInfo,
  type McpHttpHandler,
  type McpServerFactory,
  type OAuthTokenVerifier,
} from '@modelcontextprotocol/server';
import { httpNotifiers } from '../context.js';
import { LegacySessions } from './legacySessions.js';
import { DEFAULT_MAX_IDLE_INSTANCES, reusingFactory } from './reuse.js';
import type { TextSink } from '../errors.js';

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
   * How 2026-07-28 requests get a server instance. `reuse` (default): an instance whose exchange has
   * finished serves the next request, so a request costs no registration work; the factory is then called
   * with `{ era: 'modern' }` only, and the caller's identity is read from each request by the runtime.
   * `per-request`: the factory builds an instance for every request (with that request's `authInfo`),
   * for factories that build per-caller state.
   */
  instances?: 'reuse' | 'per-request';
  /** Most idle instances kept for reuse. Default 64. */
  maxIdleInstances?: number;
}

/** How HTTP requests are authenticated (SDK `requireBearerAuth`, SDK-V2 §7). */
export interface HttpAuthOptions {
  /** Checks a token and returns its `AuthInfo` (with `expiresAt`, `scopes`, and `resource` from the token's audience). */
  readonly verifier: OAuthTokenVerifier;
  /**
   * The resource identifier tokens must be issued for (RFC 8707); tokens for another resource are
   * refused with 401. Default: this endpoint's URL.
   */
  readonly expectedResource?: URL;
  /** Protected Resource Metadata URL advertised in `WWW-Authenticate`. */
  readonly resourceMetadataUrl?: string;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/** A running HTTP server. */
export interface HttpServerHandle {
  /** The endpoint URL, e.g. `http://127.0.0.1:3000/mcp`. */
  readonly url: string;
  /** Publishes a resource update to open 2026 `subscriptions/listen` streams. */
  notifyResourceUpdated(uri: string): void;
  /** The SDK handler, for anything else (`notify`, `bus`). */
  readonly handler: McpHttpHandler;
  /** Stops accepting connections and tears down open streams. */
  close(): Promise<void>;
}

function toHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(key, v);
    else if (value !== undefined) headers.set(key, value);
  }
  return headers;
}

/** Converts a Node request to a web `Request`; aborting `signal` cancels the exchange when the client goes away. */
function toRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  const init: RequestInit & { duplex?: 'half' } = { method: req.method ?? 'GET', headers: toHeaders(req), signal };
  if (hasBody) {
    init.body = Readable.toWeb(req) as ReadableStream<Uint8Array>;
    init.duplex = 'half';
  }
  return new Request(url, init as RequestInit);
}

/** Streams a web `Response` out through Node's `res`, chunk by chunk (SSE needs each chunk flushed). */
async function sendResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  res.writeHead(response.status, headers);
  if (response.body) {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) res.write(chunk);
  }
  res.end();
}

/**
 * Reads a POST body once (bounded), so the era can be decided from it and both routes get it parsed;
 * the request is rebuilt around the bytes read. Other methods pass through untouched.
 */
async function readBody(request: Request, max: number): Promise<{ request: Request; parsedBody: unknown } | Response> {
  if (request.method !== 'POST' || !request.body) return { request, parsedBody: undefined };
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > max) return Response.json({ jsonrpc: '2.0', error: { code: -32600, message: `Request body exceeds ${max} bytes` }, id: null }, { status: 413 });
    chunks.push(chunk);
  }
  const bytes = Buffer.concat(chunks);
  let parsedBody: unknown;
  try {
    parsedBody = JSON.parse(bytes.toString('utf8'));
  } catch {
    parsedBody = undefined; // the SDK answers the parse error itself
  }
  const rebuilt = new Request(request.url, { method: 'POST', headers: request.headers, body: bytes, signal: request.signal });
  return { request: rebuilt, parsedBody };
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
  const legacy = new LegacySessions(factory, options.sessionIdleMs);
  const modern = options.instances === 'per-request' ? factory : reusingFactory(factory, options.maxIdleInstances ?? DEFAULT_MAX_IDLE_INSTANCES);
  const handler = createMcpHandler(modern, {
    legacy: 'reject',
    maxRequestBodySize: maxBody,
    onerror: (error) => stderr.write(`[mcp-gen] http: ${error.message}\n`),
  });
  let authenticate: ((request: Request) => Promise<AuthInfo | Response>) | undefined;
  const server = createServer((req, res) => {
    const controller = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) controller.abort();
    });
    void (async () => {
      try {
        if (new URL(req.url ?? '/', 'http://localhost').pathname !== path) {
          res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
          return;
        }
        const request = toRequest(req, controller.signal);
        const response = hostHeaderValidationResponse(request, hosts) ?? originValidationResponse(request, origins) ?? (await serve(request));
        await sendResponse(response, res);
      } catch (error) {
        if (controller.signal.aborted) return;
        stderr.write(`[mcp-gen] http: ${error instanceof Error ? error.message : String(error)}\n`);
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end();
      }
    })();
  });
  // Authentication after Host/Origin: a rebinding page must not even learn whether a token is valid.
  const serve = async (incoming: Request): Promise<Response> => {
    const auth = authenticate ? await authenticate(incoming) : undefined;
    if (auth instanceof Response) return auth;
    const read = await readBody(incoming, maxBody);
    if (read instanceof Response) return read;
    const { request, parsedBody } = read;
    if (await isLegacyRequest(request, parsedBody)) return legacy.handle(request, parsedBody, auth);
    return handler.fetch(request, { ...(parsedBody === undefined ? {} : { parsedBody }), ...(auth ? { authInfo: auth } : {}) });
  };
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 3000, bindHost, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const notifier = { resourceUpdated: (uri: string) => handler.notify.resourceUpdated(uri) };
  httpNotifiers.add(notifier);
  const address = server.address() as AddressInfo;
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${hostPart}:${address.port}${path}`;
  if (options.auth) {
    authenticate = requireBearerAuth({
      verifier: options.auth.verifier,
      expectedResource: options.auth.expectedResource ?? new URL(url),
      ...(options.auth.resourceMetadataUrl === undefined ? {} : { resourceMetadataUrl: options.auth.resourceMetadataUrl }),
    });
  }
  stderr.write(`[mcp-gen] listening on ${url}${options.auth ? ' (bearer tokens required)' : ' (no authentication: every request is the launch principal)'}\n`);
  return {
    url,
    handler,
    notifyResourceUpdated: (uri) => handler.notify.resourceUpdated(uri),
    async close() {
      httpNotifiers.delete(notifier);
      await legacy.close();
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
