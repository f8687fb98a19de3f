/**
 * The direct lane for 2026-07-28 requests over HTTP.
 *
 * `createMcpHandler` serves each 2026 request by connecting a server instance to a new single-exchange
 * transport, with a web `Request` in and a web `Response` out. On Node those web objects (and the abort
 * signals each carries) cost more than the call itself: at 1,000 primitives the SDK entry takes about
 * 0.45 ms of CPU per call whatever the server does. The lane serves the same requests on the same SDK
 * dispatch (`Protocol`, `McpServer`, the codec of the revision) without them:
 *
 * - pooled instances of the process's shared registry, each connected once to a channel of its own that
 *   serves one exchange at a time (an exchange never shares an instance with another in flight);
 * - before every exchange the instance is given the request's client identity from its envelope (client
 *   info and capabilities), as the SDK entry seeds each request's instance, and nothing else of an
 *   earlier exchange reaches it: the caller is read from each request's `authInfo`;
 * - the answer is written to Node's response directly: JSON with its length, or, when the server sends
 *   something related to the request before its result (progress, logs), an event stream exactly as the
 *   SDK's per-request transport writes one.
 *
 * The lane takes only what the SDK entry would serve as it is (see {@link laneRoute}): a single JSON-RPC
 * request with the served revision's envelope claim, for a method that needs no entry-level handling
 * (`server/discover`, `subscriptions/listen` and notifications go to the SDK entry), whose standard headers
 * are present and agree with the body verbatim. The rest of the envelope is checked by the SDK's dispatch
 * itself, before any handler runs; an error it answers then (an invalid envelope, a method the server does
 * not serve) is not sent: the request goes to the SDK entry, whose validation ladder answers it. So every
 * refusal comes from `createMcpHandler`, and the lane never answers what the SDK would answer otherwise
 * (`test/runtime/modern-lane.test.ts` compares both answers on the same requests, fixed and random).
 *
 * The lane's classification calls no failing Zod parse. The SDK's `classifyInboundRequest` asks first
 * whether the body is a JSON-RPC result or error response, and a failing `safeParse` builds its result
 * with a getter of its own; V8 gives every such object a hidden class of its own, allocated where each
 * young collection must trace it, so two failing parses per request made young collections take 10 ms
 * and more under load, and they were most of the 2026 era's tail latency.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, McpServer, PROTOCOL_VERSION_META_KEY, RELATED_TASK_META_KEY, type AuthInfo, type McpServerFactory } from '@modelcontextprotocol/server';
import { lazyRequest } from './requestView.js';

/** Methods the lane serves; each is answered by the instance's own handlers, with nothing done at the entry. */
const LANE_METHODS: ReadonlySet<string> = new Set(['tools/call', 'tools/list', 'resources/read', 'resources/list', 'resources/templates/list', 'prompts/get', 'prompts/list', 'completion/complete']);

/** The body field the `Mcp-Name` header mirrors, per method (SEP-2243). */
const NAME_SOURCE: Readonly<Record<string, string>> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' };

/** The revision the lane serves. */
const REVISION = '2026-07-28';

/**
 * The client capability error keeps the SDK's ladder status (400) even when a handler raised it; every
 * other error a handler raises is answered 200 (errors before any handler are left to the SDK entry).
 */
const MISSING_CLIENT_CAPABILITY = -32021;
const LADDER_STATUS: Readonly<Record<number, number>> = { [MISSING_CLIENT_CAPABILITY]: 400 };

/** Default interval of the event stream's keep-alive comments, as the SDK's per-request transport. */
export const LANE_KEEP_ALIVE_MS = 15_000;

type Id = string | number;

/** A JSON-RPC request the lane serves. */
export interface LaneRequest {
  readonly jsonrpc: '2.0';
  readonly id: Id;
  readonly method: string;
  readonly params?: Readonly<Record<string, unknown>>;
}

type Outbound = { readonly id?: Id; readonly result?: unknown; readonly error?: { readonly code?: unknown } };

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A JSON-RPC id or progress token as the SDK's schemas take one: a string or a safe integer. */
const isIdLike = (value: unknown): boolean => typeof value === 'string' || Number.isSafeInteger(value);

/** The members a JSON-RPC request may have (the SDK's schema of one is strict). */
const REQUEST_MEMBERS: ReadonlySet<string> = new Set(['jsonrpc', 'id', 'method', 'params']);

/**
 * Whether `body` passes the SDK's `JSONRPCRequestSchema` (`isJSONRPCRequest`), decided without Zod: a
 * strict object of `jsonrpc: "2.0"`, an id, a string method and optional object params, whose optional
 * `_meta` is an object with an optional progress token (a string or a safe integer) and an optional
 * related-task object with a string `taskId`. On a JSON body a successful parse costs Zod 4 % of a lane
 * call's CPU; `test/runtime/modern-lane.test.ts` holds both to the same verdicts on random bodies.
 */
export function isPlainJsonRpcRequest(body: unknown): boolean {
  if (!isRecord(body)) return false;
  const members = Object.keys(body);
  for (let i = 0; i < members.length; i++) if (!REQUEST_MEMBERS.has(members[i]!)) return false;
  if (body['jsonrpc'] !== '2.0' || !isIdLike(body['id']) || typeof body['method'] !== 'string') return false;
  const params = body['params'];
  if (params === undefined) return true;
  if (!isRecord(params)) return false;
  const meta = params['_meta'];
  if (meta === undefined) return true;
  if (!isRecord(meta)) return false;
  const token = meta['progressToken'];
  if (token !== undefined && !isIdLike(token)) return false;
  const related = meta[RELATED_TASK_META_KEY];
  return related === undefined || (isRecord(related) && typeof related['taskId'] === 'string');
}

/** A header as one string, or undefined when absent or repeated. */
function single(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * The request, when the lane may serve this POST body (everything else goes to the SDK entry):
 *
 * - one JSON-RPC request, as the SDK's `isJSONRPCRequest` ({@link isPlainJsonRpcRequest}: its schema is
 *   strict, so a body with a `result` or `error` member, which the classifier would take for a response,
 *   or a malformed progress token, fails it);
 * - a method of {@link LANE_METHODS};
 * - the envelope claim of the served revision in `params._meta` (the dispatch checks the rest of the
 *   envelope before any handler runs);
 * - `MCP-Protocol-Version` and `Mcp-Method` equal to the body's, and `Mcp-Name` (for the methods that carry
 *   one) equal to the body's name or URI as it is: no optional whitespace, no Base64 form to decode.
 */
export function laneRoute(headers: IncomingHttpHeaders, body: unknown): LaneRequest | undefined {
  if (!isRecord(body)) return undefined;
  const method = body['method'];
  if (typeof method !== 'string' || !LANE_METHODS.has(method)) return undefined;
  if (single(headers, 'mcp-protocol-version') !== REVISION || single(headers, 'mcp-method') !== method) return undefined;
  const params = body['params'];
  const meta = isRecord(params) ? params['_meta'] : undefined;
  if (!isRecord(meta) || meta[PROTOCOL_VERSION_META_KEY] !== REVISION) return undefined;
  const field = NAME_SOURCE[method];
  if (field !== undefined) {
    const value = (params as Record<string, unknown>)[field];
    if (typeof value !== 'string' || single(headers, 'mcp-name') !== value || value.startsWith('=?base64?') || /^[ \t]|[ \t]$/.test(value)) return undefined;
  }
  return isPlainJsonRpcRequest(body) ? (body as unknown as LaneRequest) : undefined;
}

/** The SDK fields the lane sets on an instance (checked for presence before the lane is used). */
interface Internals {
  _negotiatedProtocolVersion?: string;
  _clientCapabilities?: unknown;
  _clientVersion?: unknown;
  _onrequest?: (message: unknown, extra: unknown) => void;
}

const internalsOf = (server: McpServer): Internals => server.server as unknown as Internals;

/** One exchange in flight on a channel. */
interface Exchange {
  readonly id: Id;
  readonly res: ServerResponse;
  /** Inside the synchronous dispatch: an error sent now was answered before any handler ran. */
  dispatching: boolean;
  /** The dispatch refused the request before any handler ran: the SDK entry answers it instead. */
  refused: boolean;
  /** The event stream, once something related to the request came before its result. */
  stream?: { keepAlive: NodeJS.Timeout | undefined };
  readonly end: () => void;
}

/** A transport serving one exchange at a time, for the life of its instance. */
class LaneChannel {
  onmessage?: (message: unknown, extra?: unknown) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  exchange: Exchange | undefined;
  closed = false;

  constructor(private readonly keepAliveMs: number) {}

  async start(): Promise<void> {}

  async send(message: Outbound, options?: { relatedRequestId?: Id }): Promise<void> {
    const exchange = this.exchange;
    if (exchange === undefined) return;
    const isResponse = message.result !== undefined || message.error !== undefined;
    const related = isResponse ? message.id : options?.relatedRequestId;
    if (related === undefined || related !== exchange.id) {
      if (isResponse) this.onerror?.(new Error(`Received a response for an unknown request id: ${String(message.id)}`));
      return;
    }
    if (!isResponse) {
      this.frame(exchange, message);
      return;
    }
    this.exchange = undefined;
    if (exchange.dispatching && message.error !== undefined) {
      exchange.refused = true;
      return;
    }
    if (exchange.stream !== undefined) {
      // Once streaming, the result is the stream's last event, whatever it is.
      this.frame(exchange, message);
      if (exchange.stream.keepAlive) clearInterval(exchange.stream.keepAlive);
      if (!exchange.res.destroyed) exchange.res.end();
      exchange.end();
      return;
    }
    const code = message.error?.code;
    const ladder = code === MISSING_CLIENT_CAPABILITY ? LADDER_STATUS[code] : undefined;
    const body = JSON.stringify(message);
    if (!exchange.res.destroyed) {
      exchange.res.writeHead(ladder ?? 200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      exchange.res.end(body);
    }
    exchange.end();
  }

  /** Writes one message as an event, opening the event stream first when this is the first. */
  private frame(exchange: Exchange, message: unknown): void {
    const res = exchange.res;
    if (exchange.stream === undefined) {
      exchange.stream = { keepAlive: undefined };
      if (res.destroyed) return;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', connection: 'keep-alive', 'x-accel-buffering': 'no' });
      if (Number.isFinite(this.keepAliveMs) && this.keepAliveMs >= 1) {
        exchange.stream.keepAlive = setInterval(() => {
          if (!res.destroyed && !res.writableEnded) res.write(': keepalive\n\n');
        }, Math.min(this.keepAliveMs, 2 ** 31 - 1));
        exchange.stream.keepAlive.unref();
      }
    }
    if (!res.destroyed && !res.writableEnded) res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const exchange = this.exchange;
    this.exchange = undefined;
    if (exchange?.stream?.keepAlive) clearInterval(exchange.stream.keepAlive);
    this.onclose?.();
  }
}

interface Pooled {
  readonly server: McpServer;
  readonly channel: LaneChannel;
}

/** Options of {@link ModernLane}. */
export interface LaneOptions {
  /** Most idle instances kept for the next exchange. */
  readonly maxIdle: number;
  /** Interval of the event stream's keep-alive comments. */
  readonly keepAliveMs?: number;
  /** Where transport errors of pooled instances are reported. */
  readonly onerror: (error: Error) => void;
}

/** Whether any registration of `server` carries an SDK `scopeChallenge` (the SDK entry answers those itself). */
function hasScopeChallenges(server: McpServer): boolean {
  const fields = server as unknown as Record<string, Record<string, { scopeChallenge?: unknown }> | undefined>;
  return ['_registeredTools', '_registeredResources', '_registeredResourceTemplates', '_registeredPrompts'].some((field) =>
    Object.values(fields[field] ?? {}).some((entry) => entry.scopeChallenge !== undefined),
  );
}

type Context = Record<string, unknown> & { readonly mcpReq: Record<string, unknown>; readonly http?: Record<string, unknown> };
type TransportInfo = { readonly request?: unknown; readonly closeSSEStream?: unknown; readonly closeStandaloneSSEStream?: unknown } | undefined;
type BuildContext = (ctx: Context, transportInfo: TransportInfo) => Context;
type Delegated = (...args: unknown[]) => unknown;

/** The members `Server.buildContext` adds to a request's `mcpReq`, each a function. */
const ADDED = ['log', 'elicitInput', 'requestSampling'] as const;

/**
 * `Server.buildContext`, building the same context without object spreads. The SDK builds each request's
 * context as `{ ...ctx, mcpReq: { ...ctx.mcpReq, log, … }, http: { ...ctx.http, … } }`; Node 20's V8 gives
 * every object built by a spread followed by more properties a hidden class of its own, which costs CPU
 * on every call and makes the objects outlive young collections (at 1,000 primitives over HTTP, 45 % of
 * what each young collection promoted). `Object.assign` builds the same objects, in the same key order,
 * with shared hidden classes. The three functions the SDK adds (`log`, `elicitInput`, `requestSampling`)
 * are the SDK's own: the first call of any of them builds the SDK's context for the request and calls its
 * member, so their behaviour is the SDK's whatever its version.
 */
function assignedContexts(original: BuildContext, self: unknown): BuildContext {
  return (ctx, transportInfo) => {
    let sdk: Context | undefined;
    const own = (name: (typeof ADDED)[number]): Delegated => (...args) => ((sdk ??= original.call(self, ctx, transportInfo)).mcpReq[name] as Delegated)(...args);
    const mcpReq = Object.assign({}, ctx.mcpReq, { log: own('log'), elicitInput: own('elicitInput'), requestSampling: own('requestSampling') });
    const hasHttpInfo = ctx.http || transportInfo?.request || transportInfo?.closeSSEStream || transportInfo?.closeStandaloneSSEStream;
    const http = hasHttpInfo ? Object.assign({}, ctx.http, { req: transportInfo?.request, closeSSE: transportInfo?.closeSSEStream, closeStandaloneSSE: transportInfo?.closeStandaloneSSEStream }) : undefined;
    return Object.assign({}, ctx, { mcpReq, http }) as Context;
  };
}

/** The members of a context as data: each function stands as the word `function`. */
function shapeOf(value: unknown, depth = 0): unknown {
  if (typeof value === 'function') return 'function';
  if (value === null || typeof value !== 'object' || depth > 1) return value;
  return Object.entries(value).map(([k, v]) => [k, shapeOf(v, depth + 1)]);
}

/**
 * Installs {@link assignedContexts} on `server` when it builds, for sample requests with and without HTTP
 * information, contexts of the same keys in the same order with the same values as the SDK's own (its
 * added members functions). A version of the SDK that builds them otherwise keeps its own method.
 */
export function shareContextShapes(server: McpServer): boolean {
  const low = server.server as unknown as { buildContext?: BuildContext };
  const original = low.buildContext;
  if (typeof original !== 'function') return false;
  const replacement = assignedContexts(original, low);
  const signal = new AbortController().signal;
  const base = (http?: Record<string, unknown>): Context => ({
    sessionId: undefined,
    mcpReq: { id: 1, method: 'tools/call', _meta: { a: 1 }, envelope: { b: 2 }, requestState: { c: 3 }, signal, send: () => undefined, notify: () => undefined },
    http,
  });
  const samples: [Context, TransportInfo][] = [
    [base(), undefined],
    [base(), {}],
    [base({ authInfo: { token: 't' } }), undefined],
    [base(), { request: { url: 'u' }, closeSSEStream: () => undefined }],
    [base({ authInfo: { token: 't' } }), { request: { url: 'u' }, closeStandaloneSSEStream: () => undefined }],
  ];
  for (const [ctx, info] of samples) {
    const theirs = original.call(low, ctx, info);
    const ours = replacement(ctx, info);
    if (JSON.stringify(shapeOf(theirs)) !== JSON.stringify(shapeOf(ours))) return false;
    if (ADDED.some((name) => typeof theirs.mcpReq[name] !== 'function') || ours.mcpReq['signal'] !== signal || theirs.mcpReq['signal'] !== signal) return false;
    if (theirs.http?.['req'] !== ours.http?.['req']) return false;
  }
  low.buildContext = replacement;
  return true;
}

/** The lane of one HTTP endpoint: instances of `factory` (a shared registry's), pooled. */
export class ModernLane {
  private readonly idle: Pooled[] = [];
  private readonly busy = new Set<Pooled>();
  private closing = false;

  private constructor(
    private readonly factory: McpServerFactory,
    private readonly options: LaneOptions,
  ) {}

  /**
   * The lane for `factory`, or undefined when it cannot serve it: an instance lacks the SDK fields the lane
   * sets, or some primitive carries an SDK scope challenge (answered by the SDK entry).
   */
  static async open(factory: McpServerFactory, options: LaneOptions): Promise<ModernLane | undefined> {
    const lane = new ModernLane(factory, options);
    const first = await lane.build().catch(() => undefined);
    if (first === undefined) return undefined;
    lane.idle.push(first);
    return lane;
  }

  private async build(): Promise<Pooled | undefined> {
    const product = await this.factory({ era: 'modern' } as Parameters<McpServerFactory>[0]);
    if (!(product instanceof McpServer)) return undefined;
    const internals = internalsOf(product);
    const fields: (keyof Internals)[] = ['_negotiatedProtocolVersion', '_clientCapabilities', '_clientVersion'];
    if (!fields.every((f) => f in internals) || typeof internals._onrequest !== 'function' || hasScopeChallenges(product)) {
      await product.close().catch(() => undefined);
      return undefined;
    }
    internals._negotiatedProtocolVersion = REVISION;
    const channel = new LaneChannel(this.options.keepAliveMs ?? LANE_KEEP_ALIVE_MS);
    channel.onerror = this.options.onerror;
    await product.connect(channel as never);
    shareContextShapes(product);
    return { server: product, channel };
  }

  private async take(): Promise<Pooled> {
    const pooled = this.idle.pop() ?? (await this.build());
    if (pooled === undefined) throw new Error('the shared registry no longer builds instances the lane can serve');
    return pooled;
  }

  private release(pooled: Pooled): void {
    this.busy.delete(pooled);
    if (!this.closing && !pooled.channel.closed && this.idle.length < this.options.maxIdle) this.idle.push(pooled);
    else void pooled.server.close().catch(() => undefined);
  }

  /**
   * Serves `message` (from {@link laneRoute}) and writes its answer to `res`; false, with nothing written,
   * when the dispatch refused it before any handler ran (hand it to the SDK entry). The request's client
   * goes away before the answer: the exchange is closed, which aborts its handler as the SDK entry does, and
   * its instance is not reused.
   */
  async serve(message: LaneRequest, req: IncomingMessage, res: ServerResponse, url: () => URL, authInfo: AuthInfo | undefined): Promise<boolean> {
    const pooled = await this.take();
    this.busy.add(pooled);
    const { server, channel } = pooled;
    const meta = message.params!['_meta'] as Record<string, unknown>;
    const internals = internalsOf(server);
    internals._clientCapabilities = meta[CLIENT_CAPABILITIES_META_KEY];
    internals._clientVersion = meta[CLIENT_INFO_META_KEY];
    const gone = (): void => {
      if (channel.exchange !== exchange) return;
      void channel.close();
      this.busy.delete(pooled);
    };
    const exchange: Exchange = {
      id: message.id,
      res,
      dispatching: true,
      refused: false,
      end: () => {
        res.off('close', gone);
        this.release(pooled);
      },
    };
    res.once('close', gone);
    channel.exchange = exchange;
    try {
      internals._onrequest!.call(server.server, message, { classification: { era: 'modern', revision: REVISION }, request: lazyRequest(req, url), ...(authInfo ? { authInfo } : {}) });
    } catch (error) {
      // The dispatch itself failed (it answers every error it knows): nothing will answer this exchange.
      channel.exchange = undefined;
      exchange.end();
      throw error;
    } finally {
      exchange.dispatching = false;
    }
    if (!exchange.refused) return true;
    exchange.end();
    return false;
  }

  /** Closes every pooled instance (those serving an exchange end it as a closed connection). */
  async close(): Promise<void> {
    this.closing = true;
    const all = [...this.idle, ...this.busy];
    this.idle.length = 0;
    this.busy.clear();
    await Promise.all(all.map((p) => p.server.close().catch(() => undefined)));
  }
}
