/**
 * The runtime object of one server instance (`createRuntime`) and the context
 * every handler receives (`HandlerContext`): a small, stable surface over the
 * SDK's `ServerContext`, so handler code does not depend on SDK internals.
 */
import { ProtocolError, ProtocolErrorCode, type AuthInfo, type McpServer, type ReadResourceResult, type ServerContext, type LoggingLevel } from '@modelcontextprotocol/server';
import { ReadRefused, defaultErrorReporter, type ErrorSource, type TextSink } from './errors.js';
import { DEFAULT_LIMITS, identityFromToken, type Identity, type ServerOptions } from './options.js';
import { deferredAudit, jsonLinesAudit, type AuditEvent, type AuditSink, type DeferredLine } from './security/audit.js';
import { memoryStore } from './store/memory.js';
import type { SharedStore } from './store/types.js';
import type { PromptSpec, ResourceSpec, ToolSpec } from './types.js';
import { open, requestStateHook, seal, stateKeys, type StateKeys } from './security/requestState.js';
import { logLine } from './security/logLine.js';
import { auditRefusal } from './security/call.js';
import { declaredAudiences, withAudienceScopes } from './security/audience.js';
import { connectionFor, connectionOfRequest, type Connection } from './connection.js';
import { observedState, processState, type StateStore } from './state.js';

export type { Connection };

export type { ServerOptions };

/** Publishes resource updates to 2026 `subscriptions/listen` streams of an HTTP endpoint. */
export interface ResourceNotifier {
  resourceUpdated(uri: string): void;
}

/**
 * The notifiers of HTTP endpoints running in this process. Over HTTP each
 * server instance lives for one request, so an update a handler announces
 * must go to the endpoint's bus, not to its own short-lived instance.
 * `startHttpServer` registers here and unregisters on close.
 */
export const httpNotifiers = new Set<ResourceNotifier>();

const runtimes = new WeakMap<McpServer, Runtime>();

/** The runtime serving `server` (bound by `installSubscriptions` / `installSecurity`), for hosts that gate on its behalf. */
export function runtimeOf(server: McpServer): Runtime | undefined {
  return runtimes.get(server);
}

/** Internal: binds `server` to `rt` for {@link runtimeOf}. */
export function bindRuntime(server: McpServer, rt: Runtime): void {
  runtimes.set(server, rt);
}

/** Identifies the primitive a handler serves. */
export interface PrimitiveRef {
  readonly kind: 'tool' | 'resource' | 'prompt';
  readonly name: string;
}

/** What every handler receives as its last argument. */
export interface HandlerContext {
  /** Aborted when the client cancels or the tool's timeout fires. */
  readonly signal: AbortSignal;
  readonly primitive: PrimitiveRef;
  /** Who is calling: the verified token's subject over HTTP, the launch principal otherwise. Never from arguments. */
  readonly principal: string;
  /** The caller's tenant (token claim over HTTP, `MCP_TENANT` / `options.tenant` otherwise). Never from arguments. */
  readonly tenant?: string;
  /** The caller's granted scopes (token scopes over HTTP, `options.scopes` otherwise). */
  readonly scopes: readonly string[];
  /** The idempotency key of this call (tools with `idempotency: required`). */
  readonly idempotencyKey?: string;
  /** How this call was approved (tools with `approval: required`): the receipt, or `elicitation`. */
  readonly approval?: string;
  /** Reports progress; a no-op unless the client sent a progress token. */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /** Writes one diagnostic line to stderr (never to the protocol stream). */
  log(level: LoggingLevel, message: string, data?: unknown): Promise<void> | void;
  /**
   * Seals state for an `inputRequired({ requestState })` result (2026 multi-round requests). The server
   * refuses any returned state it did not seal, before a handler runs.
   */
  sealState(payload: unknown): string;
  /** The payload this request's `requestState` was sealed with, or undefined on the first round. */
  openState<T = unknown>(): T | undefined;
  /** Tells subscribers that a resource changed (see `installSubscriptions`). */
  notifyResourceUpdated(uri: string): Promise<void>;
  /**
   * Reads one of this server's resources as the caller: the read passes the resource's scope and
   * `authorize` gates with the caller's identity (and is audited) exactly like a client's
   * `resources/read`, so a handler never widens access by reading on the caller's behalf. A refusal
   * throws the same protocol error the client would get.
   */
  readResource(uri: string): Promise<ReadResourceResult['contents']>;
  /**
   * Resource reads: states the revision (and last modification) of the content this read serves, when
   * the handler's store versions its documents. The read's content `_meta` then carries these instead of
   * the manifest's declared `revision` / `lastModified`, so a client sees which revision it got, and the
   * contract suites' quality gate fails when a read serves another revision than the one declared.
   * Outside a resource read it does nothing.
   */
  servedRevision(revision: string, lastModified?: string): void;
  /**
   * The store for the handlers' own domain state (`ServerOptions.state`; default in memory, per process).
   * Writes are reported to `ServerOptions.onEffect`: state kept here is state the contract suites can see
   * change, so a read that writes is caught as a hidden side effect.
   */
  readonly state: StateStore;
  /** The SDK's own context: an escape hatch for what this interface does not cover. */
  readonly sdk: ServerContext;
}

/** The primitives of one server, as the generated specs declare them (for listings and subscriptions). */
export interface Catalog {
  /** Every scope the manifest declares: the default grant of an unconfigured local caller. */
  readonly scopes: readonly string[];
  readonly tools: readonly ToolSpec[];
  readonly resources: readonly ResourceSpec[];
  readonly prompts: readonly PromptSpec[];
  /** The manifest declares `server.logging`: handler logs also go to the client as log notifications. */
  readonly logging?: boolean;
}

/** Per-instance state shared by all callbacks of one server; create it with {@link createRuntime}. */
export interface Runtime {
  readonly options: ServerOptions;
  readonly stderr: TextSink;
  readonly catalog: Catalog;
  readonly limits: { readonly maxInputBytes: number; readonly maxUriLength: number; readonly timeoutMs: number };
  /** The state replicas share: idempotency claims, single-use approvals, change events. */
  readonly store: SharedStore;
  /** Milliseconds since the epoch (`options.clock`). */
  now(): number;
  /** The caller of this request: token over HTTP, launch options otherwise. */
  identify(sdk: ServerContext): Identity;
  /** The caller a verified token (or, without one, the launch options) stands for. */
  identifyAuth(auth: AuthInfo | undefined): Identity;
  /** Delivers one audit event (never throws). */
  audit(event: AuditEvent): void;
  /** Whether audit events go anywhere (`options.audit !== false`). */
  readonly auditing: boolean;
  /** Delivers an event built later (the default sink builds it when it writes the batch); undefined for other sinks. */
  readonly auditLater: ((build: DeferredLine) => void) | undefined;
  /** Reports an unexpected error to `options.onError` (never throws). */
  reportError(error: unknown, source: ErrorSource): void;
  /**
   * Announces that `uri` changed: over HTTP to every endpoint of this process (2026 listen streams and
   * 2025 sessions), otherwise to the subscribers of this runtime's connections (of `sdk`'s connection
   * only, when given). A no-op before `installSubscriptions`.
   */
  notifyResourceUpdated(uri: string, sdk?: ServerContext): Promise<void>;
  /**
   * Sends `notifications/resources/updated` for `uri` on one connection (the one `server` serves; default
   * this runtime's own instance), to subscribers that may still read it (scopes and `authorize` are
   * checked again with the subscriber's identity). Hosts call this.
   */
  deliverResourceUpdated(uri: string, server?: McpServer): Promise<void>;
  /** The `requestState` option for `McpServer`: refuses (and audits) states this server did not seal. */
  readonly requestState: { verify: (state: string, sdk?: ServerContext) => Promise<string> };
  /** The secrets `requestState` is sealed and opened with. */
  readonly stateKeys: StateKeys;
  /** The era this runtime's own instance serves, once known. */
  era(): 'legacy' | 'modern' | undefined;
  /** Internal: records facts learnt from a request (its era, whether it came over HTTP) on its connection. */
  observe(sdk: ServerContext): void;
  /** Internal: the connection a request belongs to (this runtime's own instance when none tied it). */
  connectionOf(sdk: ServerContext): Connection;
  /** Internal: the connections open now (their instances are connected to a transport). */
  readonly connections: Set<Connection>;
  /**
   * Internal: what `installSubscriptions` set up: whether subscriptions are served, and the gate a
   * delivery passes (scopes and `authorize` of the subscriber's identity).
   */
  readonly subscriptions: {
    installed: boolean;
    gate?: (identity: Identity, uri: string) => Promise<string | undefined>;
  };
  /**
   * Internal: the installers (`installCompletions`, `installSubscriptions`, `installSecurity`) applied to
   * the instance `createServer` built, in order, so an instance sharing its registrations gets them too.
   */
  readonly installers: ((server: McpServer) => void)[];
  /** Internal: primitives switched off while serving (`tool:NAME`, `resource:NAME`, `prompt:NAME`). */
  readonly disabled: Set<string>;
  /** True when the primitive `kind:name` is switched off. */
  isDisabled(kind: PrimitiveRef['kind'], name: string): boolean;
  /** Internal: hosts that relay list changes to clients this runtime's connections do not reach (2026 HTTP). */
  readonly listChangedHooks: Set<(kind: PrimitiveRef['kind']) => void>;
  /** Internal: the server this runtime serves, set by `installSecurity`. */
  server?: McpServer;
}

/**
 * The process-wide default store: HTTP builds a server per request, so the
 * store cannot live in one instance.
 */
const processStore = memoryStore();

const EMPTY_CATALOG: Catalog = { scopes: [], tools: [], resources: [], prompts: [] };

/**
 * Creates the runtime for one server instance. Cheap: call it inside the
 * factory (once per connection or HTTP request); nothing schema-related lives here.
 */
export function createRuntime(options: ServerOptions = {}, catalog: Catalog = EMPTY_CATALOG): Runtime {
  const stderr = options.stderr ?? process.stderr;
  const onError = options.onError ?? defaultErrorReporter(stderr);
  const clock = options.clock ?? Date.now;
  if ((options as { idempotencyStore?: unknown }).idempotencyStore !== undefined) {
    throw new Error('mcp-gen: ServerOptions.idempotencyStore was replaced by ServerOptions.store (a SharedStore, see docs/security.md); refusing to start with a store that would be ignored.');
  }
  const legacyKey = options.approval?.stateKey;
  const keys = stateKeys(options.stateSecrets ?? (legacyKey === undefined ? undefined : [legacyKey]));
  const sink: AuditSink | undefined = options.audit === false ? undefined : (options.audit ?? jsonLinesAudit(options.auditStream ?? stderr));
  const identify = withAudienceScopes(options.identify ?? identityFromToken, options.audienceScopes);
  const local: Identity = {
    principal: options.principal ?? 'local',
    ...(options.tenant === undefined ? {} : { tenant: options.tenant }),
    scopes: options.scopes ?? catalog.scopes,
    audiences: options.audiences ?? declaredAudiences(catalog),
  };
  let overHttp = false;
  const subscriptions: Runtime['subscriptions'] = { installed: false };
  const disabled = new Set<string>();
  // This runtime's own instance (set by `installSecurity`): the connection of requests no instance tied.
  const own = (): Connection | undefined => (rt.server ? connectionFor(rt.server, options.era) : undefined);
  const detached: Connection = { server: undefined as unknown as McpServer, era: options.era, overHttp: false, uris: new Map() };
  const rt: Runtime = {
    options,
    stderr,
    catalog,
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    store: options.store ?? processStore,
    now: clock,
    identify(sdk) {
      const auth = sdk.http?.authInfo;
      return auth ? identify(auth) : local;
    },
    identifyAuth: (auth) => (auth ? identify(auth) : local),
    auditing: sink !== undefined,
    auditLater: sink === undefined ? undefined : deferredAudit(sink),
    audit(event) {
      if (!sink) return;
      try {
        const pending = sink(event);
        if (pending && typeof pending.then === 'function') pending.then(undefined, (error: unknown) => rt.reportError(error, { kind: 'host', name: 'audit' }));
      } catch (error) {
        rt.reportError(error, { kind: 'host', name: 'audit' });
      }
    },
    subscriptions,
    installers: [],
    connections: new Set(),
    disabled,
    isDisabled: (kind, name) => disabled.size > 0 && disabled.has(`${kind}:${name}`),
    listChangedHooks: new Set(),
    stateKeys: keys,
    requestState: requestStateHook(keys, (sdk) => refusedState(rt, sdk)),
    era: () => own()?.era,
    connectionOf: (sdk) => connectionOfRequest(sdk) ?? own() ?? detached,
    observe(sdk) {
      const connection = rt.connectionOf(sdk);
      // 2026-era requests carry a per-request envelope; 2025 ones never do.
      connection.era ??= sdk.mcpReq.envelope ? 'modern' : 'legacy';
      if (sdk.http !== undefined) connection.overHttp = overHttp = true;
    },
    reportError(error, source) {
      try {
        onError(error, source);
      } catch {
        // A failing reporter must not turn a handled error into a crash.
      }
    },
    async notifyResourceUpdated(uri, sdk) {
      if (!subscriptions.installed) return;
      // Over HTTP the listeners live on the endpoint (2026 listen streams, 2025 sessions), not on this instance.
      if (overHttp || (sdk !== undefined && sdk.http !== undefined)) {
        for (const notifier of httpNotifiers) notifier.resourceUpdated(uri);
        return;
      }
      const targets = sdk === undefined ? [...rt.connections] : [rt.connectionOf(sdk)];
      if (targets.length === 0 && rt.server) targets.push(connectionFor(rt.server));
      await Promise.all(targets.map((c) => rt.deliverResourceUpdated(uri, c.server)));
    },
    async deliverResourceUpdated(uri, target) {
      const server = target ?? rt.server;
      if (!subscriptions.installed || !server?.isConnected()) return;
      const connection = connectionFor(server);
      // 2026: the SDK filters per `subscriptions/listen` filter itself; every listener on this connection is
      // the launch identity (stdio carries no token). 2025: only URIs this connection subscribed to.
      // Era unknown (no request seen yet): a 2025 connection has always sent `initialize` with
      // clientInfo, a 2026 one never does.
      const served = connection.era ?? (server.server.getClientVersion() ? 'legacy' : 'modern');
      const subscriber = served === 'modern' ? local : connection.uris.get(uri);
      if (subscriber === undefined) return;
      // Rights can change after subscribing: an update goes only to a subscriber that may read it now.
      if (subscriptions.gate && (await subscriptions.gate(subscriber, uri)) !== undefined) return;
      try {
        await server.server.sendResourceUpdated({ uri });
      } catch (error) {
        rt.reportError(error, { kind: 'subscription', name: uri });
      }
    },
  };
  return rt;
}

/** Audits a `requestState` this server did not seal (the SDK refuses the request before any callback runs). */
function refusedState(rt: Runtime, sdk: ServerContext | undefined): void {
  const method = (sdk?.mcpReq as { method?: unknown } | undefined)?.method;
  auditRefusal(rt, sdk, 'request', typeof method === 'string' ? method : 'requestState', 'invalid', 'requestState failed its integrity check');
}

/** Per-call facts the gates established, passed on to the handler. */
export interface CallFacts {
  readonly identity?: Identity;
  /** The handler's signal, made when the handler first reads it (default: the request's). */
  readonly signal?: { readonly signal: AbortSignal };
  readonly idempotencyKey?: string;
  readonly approval?: string;
  /** Receives what a resource read states with `ctx.servedRevision`. */
  readonly onServedRevision?: (served: ServedRevision) => void;
}

/** The revision a resource handler says it served (`ctx.servedRevision`). */
export interface ServedRevision {
  readonly revision: string;
  readonly lastModified?: string;
}

/** Builds the {@link HandlerContext} for one request. */
export function handlerContext(rt: Runtime, primitive: PrimitiveRef, sdk: ServerContext, facts: CallFacts = {}): HandlerContext {
  rt.observe(sdk);
  return new CallContext(rt, primitive, sdk, facts, facts.identity ?? rt.identify(sdk));
}

/**
 * One handler's context. Its functions are its own (a handler may take `progress` out of it and call it
 * alone); its `signal` is read through the class, because a tool's signal is made on first read, and a
 * getter written per object would be a new function per call: V8 gives every object with accessor
 * functions of its own a hidden class of its own, allocated where each young collection must trace it.
 */
class CallContext implements HandlerContext {
  declare readonly tenant?: string;
  declare readonly idempotencyKey?: string;
  declare readonly approval?: string;
  readonly primitive: PrimitiveRef;
  readonly principal: string;
  readonly scopes: readonly string[];
  readonly sdk: ServerContext;
  readonly state: StateStore;
  readonly progress: HandlerContext['progress'];
  readonly log: HandlerContext['log'];
  readonly notifyResourceUpdated: HandlerContext['notifyResourceUpdated'];
  readonly readResource: HandlerContext['readResource'];
  readonly servedRevision: HandlerContext['servedRevision'];
  readonly sealState: HandlerContext['sealState'];
  readonly openState: HandlerContext['openState'];
  readonly #lazy: { readonly signal: AbortSignal } | undefined;

  constructor(rt: Runtime, primitive: PrimitiveRef, sdk: ServerContext, facts: CallFacts, identity: Identity) {
    this.#lazy = facts.signal;
    this.primitive = primitive;
    this.principal = identity.principal;
    this.scopes = identity.scopes;
    this.sdk = sdk;
    this.state = observedState(rt.options.state ?? processState, primitive, rt.options.onEffect);
    this.progress = async (progress, total, message) => {
      const progressToken = sdk.mcpReq._meta?.progressToken;
      if (progressToken === undefined) return;
      await sdk.mcpReq.notify({
        method: 'notifications/progress',
        params: { progressToken, progress, ...(total === undefined ? {} : { total }), ...(message === undefined ? {} : { message }) },
      });
    };
    this.log = async (level, message, data) => {
      // One call, one line, whatever the text holds: a log line can never pass for an audit line.
      rt.stderr.write(logLine(primitive, level, message, data === undefined ? undefined : safeJson(data)));
      // The SDK filters by the level the client asked for (2025 logging/setLevel, 2026 logLevel).
      if (rt.catalog.logging) await sdk.mcpReq.log(level, data === undefined ? message : { message, data }, primitive.name).catch(() => undefined);
    };
    this.notifyResourceUpdated = (uri) => (reportEffect(rt, primitive, uri), rt.notifyResourceUpdated(uri, sdk));
    this.readResource = (uri) => readAsCaller(rt, sdk, uri);
    this.servedRevision = (revision, lastModified) => facts.onServedRevision?.({ revision, ...(lastModified === undefined ? {} : { lastModified }) });
    this.sealState = (payload) => seal(rt.stateKeys, payload);
    this.openState = <T>() => open<T>(rt.stateKeys, sdk.mcpReq.requestState());
    const optional = this as { tenant?: string; idempotencyKey?: string; approval?: string };
    if (identity.tenant !== undefined) optional.tenant = identity.tenant;
    if (facts.idempotencyKey !== undefined) optional.idempotencyKey = facts.idempotencyKey;
    if (facts.approval !== undefined) optional.approval = facts.approval;
  }

  /** Aborted when the client cancels or the call's time budget ends. */
  get signal(): AbortSignal {
    return this.#lazy === undefined ? this.sdk.mcpReq.signal : this.#lazy.signal;
  }
}

/** An announced change is an effect too: the suites see it like a state write. */
function reportEffect(rt: Runtime, primitive: PrimitiveRef, uri: string): void {
  try {
    rt.options.onEffect?.({ primitive, op: 'resource-updated', target: uri });
  } catch {
    // An observer's failure must not change what the handler does.
  }
}

type StoredRead = (request: { method: 'resources/read'; params: { uri: string } }, ctx: ServerContext) => Promise<ReadResourceResult>;

/**
 * Dispatches a read through the server's own `resources/read` handler with this request's context, so the
 * gates see the same caller (token over HTTP, launch identity otherwise) as the handler that asks.
 */
async function readAsCaller(rt: Runtime, sdk: ServerContext, uri: string): Promise<ReadResourceResult['contents']> {
  // The instance serving this request's connection: its handler chain checks the request in its own era.
  const server = connectionOfRequest(sdk)?.server ?? rt.server;
  const inner = server?.server as unknown as { _getRequestHandler?: (method: string) => StoredRead | undefined } | undefined;
  const read = inner?._getRequestHandler?.call(server!.server, 'resources/read');
  if (!read) throw new ProtocolError(ProtocolErrorCode.InternalError, 'ctx.readResource needs a server with resources (installSecurity binds it)');
  try {
    return (await read({ method: 'resources/read', params: { uri } }, sdk)).contents;
  } catch (error) {
    // A refusal of the read's gates (or an unknown URI) is the caller's to see; the read itself was audited.
    if (error instanceof ProtocolError && error.code === ProtocolErrorCode.InvalidParams) throw new ReadRefused(error.code, error.message, error.data);
    throw error;
  }
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
