/**
 * The runtime object of one server instance (`createRuntime`) and the context
 * every handler receives (`HandlerContext`): a small, stable surface over the
 * SDK's `ServerContext`, so handler code does not depend on SDK internals.
 */
import type { McpServer, ServerContext, LoggingLevel } from '@modelcontextprotocol/server';
import { defaultErrorReporter, type ErrorSource, type TextSink } from './errors.js';

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

/** Options generated `createServer(handlers, options)` accepts. Extensible. */
export interface ServerOptions {
  /** Called with every unexpected handler error (the client only sees a generic message). Default: one line on stderr. */
  onError?: (error: unknown, source: ErrorSource) => void;
  /** The caller's identity when the transport has none (stdio: read it from the environment at start-up). */
  principal?: string;
  /** The caller's scopes when the transport carries no token. */
  scopes?: readonly string[];
  /** Where logs and the default error reporter write. Default `process.stderr`; never stdout. */
  stderr?: TextSink;
  /** The protocol era this instance serves (pass the factory's `ctx.era`); learnt from the first request when absent. */
  era?: 'legacy' | 'modern';
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
  /** Who is calling, when known (token client id over HTTP, `options.principal` otherwise). */
  readonly principal?: string;
  /** The caller's granted scopes (token scopes over HTTP, `options.scopes` otherwise). */
  readonly scopes: readonly string[];
  /** Reports progress; a no-op unless the client sent a progress token. */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /** Writes one diagnostic line to stderr (never to the protocol stream). */
  log(level: LoggingLevel, message: string, data?: unknown): Promise<void> | void;
  /** Tells subscribers that a resource changed (see `installSubscriptions`). */
  notifyResourceUpdated(uri: string): Promise<void>;
  /** The SDK's own context: an escape hatch for what this interface does not cover. */
  readonly sdk: ServerContext;
}

/** Per-instance state shared by all callbacks of one server; create it with {@link createRuntime}. */
export interface Runtime {
  readonly options: ServerOptions;
  readonly stderr: TextSink;
  /** Reports an unexpected error to `options.onError` (never throws). */
  reportError(error: unknown, source: ErrorSource): void;
  /** Sends `notifications/resources/updated` for `uri` to subscribers only; a no-op before `installSubscriptions`. */
  notifyResourceUpdated(uri: string): Promise<void>;
  /** The era this instance serves, once known. */
  era(): 'legacy' | 'modern' | undefined;
  /** Internal: records facts learnt from a request (its era). */
  observe(sdk: ServerContext): void;
  /** Internal: subscription state, filled by `installSubscriptions`. */
  readonly subscriptions: { server?: McpServer; readonly uris: Set<string> };
}

/**
 * Creates the runtime for one server instance. Cheap: call it inside the
 * factory (once per connection or HTTP request); nothing schema-related lives here.
 */
export function createRuntime(options: ServerOptions = {}): Runtime {
  const stderr = options.stderr ?? process.stderr;
  const onError = options.onError ?? defaultErrorReporter(stderr);
  let era = options.era;
  let overHttp = false;
  const subscriptions: Runtime['subscriptions'] = { uris: new Set() };
  const rt: Runtime = {
    options,
    stderr,
    subscriptions,
    era: () => era,
    observe(sdk) {
      // 2026-era requests carry a per-request envelope; 2025 ones never do.
      era ??= sdk.mcpReq.envelope ? 'modern' : 'legacy';
      overHttp ||= sdk.http !== undefined;
    },
    reportError(error, source) {
      try {
        onError(error, source);
      } catch {
        // A failing reporter must not turn a handled error into a crash.
      }
    },
    async notifyResourceUpdated(uri) {
      const server = subscriptions.server;
      if (!server) return;
      if (overHttp) {
        // 2026 listen streams live on the endpoint; stateless 2025 HTTP cannot be notified at all.
        for (const notifier of httpNotifiers) notifier.resourceUpdated(uri);
        return;
      }
      if (!server.isConnected()) return;
      // 2026: the SDK filters per `subscriptions/listen` filter itself.
      // 2025: `sendResourceUpdated` reaches every client, so filter here.
      // Era unknown (no option, no request seen yet): a 2025 connection has
      // always sent `initialize` with clientInfo, a 2026 one never does.
      const served = era ?? (server.server.getClientVersion() ? 'legacy' : 'modern');
      if (served !== 'modern' && !subscriptions.uris.has(uri)) return;
      try {
        await server.server.sendResourceUpdated({ uri });
      } catch (error) {
        rt.reportError(error, { kind: 'subscription', name: uri });
      }
    },
  };
  return rt;
}

/** Builds the {@link HandlerContext} for one request. */
export function handlerContext(rt: Runtime, primitive: PrimitiveRef, sdk: ServerContext, signal: AbortSignal = sdk.mcpReq.signal): HandlerContext {
  rt.observe(sdk);
  const auth = sdk.http?.authInfo;
  const principal = auth?.clientId ?? rt.options.principal;
  return {
    signal,
    primitive,
    ...(principal === undefined ? {} : { principal }),
    scopes: auth?.scopes ?? rt.options.scopes ?? [],
    async progress(progress, total, message) {
      const progressToken = sdk.mcpReq._meta?.progressToken;
      if (progressToken === undefined) return;
      await sdk.mcpReq.notify({
        method: 'notifications/progress',
        params: { progressToken, progress, ...(total === undefined ? {} : { total }), ...(message === undefined ? {} : { message }) },
      });
    },
    log(level, message, data) {
      const suffix = data === undefined ? '' : ` ${safeJson(data)}`;
      rt.stderr.write(`[${primitive.kind} ${primitive.name}] ${level}: ${message}${suffix}\n`);
    },
    notifyResourceUpdated: (uri) => rt.notifyResourceUpdated(uri),
    sdk,
  };
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
