/**
 * One registry per process, a thin instance per connection. A generated
 * `createServer` registers every primitive on one `McpServer`; at 1,000
 * primitives that is about 1.4 MB of registrations, callbacks and listing
 * state. Hosts build it once (the template) and serve each connection — a
 * 2025-11-25 session, a stdio connection, a 2026-07-28 exchange — with a new
 * SDK `McpServer` whose registries are the template's own objects: the
 * instance carries only its protocol state (negotiated era, client
 * capabilities, log level, transport, in-flight requests) and the connection
 * state of `connection.ts` (2025 subscriptions), so nothing of one connection
 * is reachable from another. The runtime's installers (`installCompletions`,
 * `installSubscriptions`, `installSecurity`) run again on each instance; they
 * add a few closures, never a per-primitive structure.
 *
 * Because every instance reads the same registries, switching a primitive off
 * (`toggle.ts`) takes effect for every connection of the process at once.
 */
import { getEventListeners } from 'node:events';
import { McpServer, type Implementation, type McpServerFactory, type ServerCapabilities, type ServerOptions } from '@modelcontextprotocol/server';
import { publishCapabilities } from './capabilities.js';
import { connectionFor, type Connection } from './connection.js';
import { runtimeOf, type Runtime } from './context.js';
import { templatesChanged } from './readRoutes.js';

/** The SDK's registry fields an instance shares with the template (`_toolInputSchemaJson` caches listings). */
const SHARED_FIELDS = ['_registeredTools', '_registeredPrompts', '_registeredResources', '_registeredResourceTemplates', '_toolInputSchemaJson'] as const;

type Fields = Record<(typeof SHARED_FIELDS)[number], Record<string, unknown>>;

/** The SDK's private fields this module reads (checked for presence before use). */
export interface SdkServerInternals {
  readonly _serverInfo?: Implementation;
  readonly _instructions?: string;
  readonly _cacheHints?: ServerOptions['cacheHints'];
  readonly _responseHandlers?: ReadonlyMap<unknown, unknown>;
  readonly _requestHandlerAbortControllers?: ReadonlyMap<unknown, { readonly signal?: AbortSignal }>;
  _onclose?: () => void;
}

/**
 * Whether the "Connection closed" error the SDK builds on every close can reach anyone: it rejects the
 * outgoing requests still awaiting answers (`_responseHandlers`), and it becomes the abort reason of every
 * inbound request still in `_requestHandlerAbortControllers`. That map keeps a request until its response
 * has been written, so a 2026 exchange, which closes as soon as its one response is sent, still holds it:
 * its handler has settled (a response is sent only after that), and its signal's reason reaches only a
 * listener left on that signal. `answered` is the abort controller of the request the instance last sent
 * a response for (the controller, not the id: a client may reuse an answered request's id).
 */
export function closeErrorObservable(internals: SdkServerInternals, answered: unknown): boolean {
  const pending = internals._responseHandlers;
  const inbound = internals._requestHandlerAbortControllers;
  if (pending === undefined || inbound === undefined || pending.size > 0) return true;
  for (const controller of inbound.values()) {
    if (controller !== answered) return true; // a handler still running sees it as its signal's reason
    const signal = controller.signal;
    if (signal === undefined || getEventListeners(signal, 'abort').length > 0) return true;
  }
  return false;
}

/**
 * Runs the SDK's close of `internals`. The error it builds is captured with its stack only when someone can
 * observe it ({@link closeErrorObservable}); a 2026 instance closes after every exchange, and capturing that
 * stack was a measurable part of each call.
 */
function closeQuietly(internals: SdkServerInternals, answered: unknown, onclose: () => void): void {
  if (closeErrorObservable(internals, answered)) return onclose();
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    onclose();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** The id of a JSON-RPC response, or undefined for any other message. */
function responseId(message: unknown): unknown {
  const m = message as { id?: unknown; result?: unknown; error?: unknown };
  return m.result !== undefined || m.error !== undefined ? m.id : undefined;
}

type PrimitiveKind = 'tool' | 'resource' | 'prompt';
const CAPABILITY = { tool: 'tools', resource: 'resources', prompt: 'prompts' } as const;

function sendListChanged(server: McpServer, kind: PrimitiveKind): Promise<void> {
  if (!server.isConnected()) return Promise.resolve();
  if (kind === 'tool') return server.server.sendToolListChanged();
  if (kind === 'prompt') return server.server.sendPromptListChanged();
  return server.server.sendResourceListChanged();
}

/** How a host asks for an instance. */
export interface InstanceOptions {
  /** The era the connection speaks, when the host knows it (2025 sessions, 2026 HTTP exchanges). */
  readonly era?: 'legacy' | 'modern';
  /** The connection is served over HTTP (2026 list changes then go through the endpoint's bus). */
  readonly http?: boolean;
}

/** The registrations of one generated server, built once and shared by every connection of the process. */
export class SharedRegistry {
  private readonly info: Implementation;
  private readonly capabilities: ServerCapabilities;
  private readonly instructions: string | undefined;
  private readonly cacheHints: ServerOptions['cacheHints'];

  private constructor(
    /** The instance `createServer` built: it holds the registries; it never serves a connection itself. */
    readonly template: McpServer,
    /** The runtime every instance's callbacks run with (catalog, options, store, audit, switched-off primitives). */
    readonly rt: Runtime,
  ) {
    const internals = template.server as unknown as SdkServerInternals;
    this.info = internals._serverInfo!;
    this.capabilities = template.server.getCapabilities();
    this.instructions = internals._instructions;
    this.cacheHints = internals._cacheHints;
    // The template serves no connection: a catalog change made on it (a primitive registered, removed or
    // updated while serving) is announced to every connection sharing its registries.
    const senders = template as unknown as Record<string, () => void>;
    senders['sendToolListChanged'] = () => this.announce('tool');
    senders['sendResourceListChanged'] = () => this.announce('resource');
    senders['sendPromptListChanged'] = () => this.announce('prompt');
  }

  /**
   * Sends the kind's list-changed notification where the server declares `listChanged` for it: on every
   * open 2025 session and stdio connection (2026 stdio: the SDK sends it to listen streams that asked),
   * and through the hosts' hooks to 2026 HTTP listen streams.
   */
  announce(kind: PrimitiveKind): void {
    if (kind === 'resource') templatesChanged((this.template as unknown as Partial<Fields>)._registeredResourceTemplates);
    const declared = this.capabilities[CAPABILITY[kind]] as { listChanged?: boolean } | undefined;
    if (declared?.listChanged !== true) return;
    for (const connection of this.rt.connections) {
      // A 2026 HTTP exchange has no channel of its own for it: the endpoint's bus carries it (hooks below).
      if (connection.overHttp && connection.era === 'modern') continue;
      void sendListChanged(connection.server, kind).catch((error: unknown) => this.rt.reportError(error, { kind: 'host', name: 'list_changed' }));
    }
    for (const hook of this.rt.listChangedHooks) hook(kind);
  }

  /**
   * The registry of `template`, or undefined when it cannot be shared: not built by a generated
   * `createServer` (no mcp-gen runtime bound to it), or an SDK that stores its registrations differently.
   */
  static of(template: unknown): SharedRegistry | undefined {
    if (!(template instanceof McpServer)) return undefined;
    const rt = runtimeOf(template);
    if (rt === undefined || rt.server !== template || rt.installers.length === 0) return undefined;
    const fields = template as unknown as Partial<Fields>;
    if (!SHARED_FIELDS.every((f) => fields[f] !== null && typeof fields[f] === 'object')) return undefined;
    if ((template.server as unknown as SdkServerInternals)._serverInfo === undefined) return undefined;
    return new SharedRegistry(template, rt);
  }

  /** A new instance serving these registrations, for one connection. */
  instance(options: InstanceOptions = {}): McpServer {
    const server = new McpServer(this.info, {
      capabilities: structuredClone(this.capabilities),
      ...(this.instructions === undefined ? {} : { instructions: this.instructions }),
      ...(this.cacheHints === undefined ? {} : { cacheHints: this.cacheHints }),
      requestState: this.rt.requestState,
    });
    const own = server as unknown as Fields;
    const shared = this.template as unknown as Fields;
    for (const field of SHARED_FIELDS) own[field] = shared[field];
    for (const install of this.rt.installers) install(server);
    // Installing request handlers registers capabilities again (the SDK adds `listChanged: true` to a
    // kind); every instance advertises exactly what the template does.
    publishCapabilities(server, this.capabilities);
    const connection = connectionFor(server, options.era);
    if (options.http) connection.overHttp = true;
    this.track(server, connection);
    return server;
  }

  /** A factory that serves every connection with an instance of this registry. */
  factory(): McpServerFactory {
    return (context) => this.instance(context.era === undefined ? {} : { era: context.era });
  }

  /** Keeps `rt.connections` to the instances connected now: added on connect, removed when the transport closes. */
  private track(server: McpServer, connection: Connection): void {
    const live = this.rt.connections;
    const internals = server.server as unknown as SdkServerInternals;
    const connect = server.connect.bind(server);
    // The request this instance last sent a response for (its abort controller): its handler has settled.
    let answered: unknown;
    server.connect = async (transport) => {
      answered = undefined;
      const send = transport.send.bind(transport);
      transport.send = (message, options) => {
        const id = responseId(message);
        if (id !== undefined) answered = internals._requestHandlerAbortControllers?.get(id);
        return send(message, options);
      };
      await connect(transport);
      live.add(connection);
    };
    const onclose = internals._onclose?.bind(server.server);
    internals._onclose = () => {
      live.delete(connection);
      if (onclose) closeQuietly(internals, answered, onclose);
    };
  }
}

/** A factory serving every connection from one shared registry, and access to that registry. */
export interface Sharing {
  /** The factory to hand to a host: every connection gets an instance of the registry. */
  readonly factory: McpServerFactory;
  /** Builds the registry (once) and gives it; undefined when the factory's product cannot be shared. */
  ready(): Promise<SharedRegistry | undefined>;
  /** The registry if it is built already (a synchronous factory builds it on the first call of `ready` or `factory`). */
  now(): SharedRegistry | undefined;
}

const SHARING = Symbol('mcp-gen.sharing');

type Built = { readonly registry: SharedRegistry | undefined };

/**
 * Wraps `factory` so it is called once, and every connection is served by an instance of the registry it
 * built; a factory whose product cannot be shared (see {@link SharedRegistry.of}) is called per connection
 * as before. Wrapping a factory this returned gives the same sharing (one registry per factory).
 * A synchronous factory stays synchronous.
 */
export function sharingFactory(factory: McpServerFactory, options: InstanceOptions = {}): Sharing {
  const known = (factory as { [SHARING]?: Sharing })[SHARING];
  if (known) return options.http ? withOptions(known, options) : known;
  let built: Built | Promise<Built> | undefined;
  const build = (): Built | Promise<Built> => {
    if (built !== undefined) return built;
    const product = factory({} as Parameters<McpServerFactory>[0]);
    const settle = (template: unknown): Built => (built = { registry: SharedRegistry.of(template) });
    built = product instanceof Promise ? product.then(settle) : settle(product);
    return built;
  };
  const serve = (state: Built, context: Parameters<McpServerFactory>[0]): ReturnType<McpServerFactory> =>
    state.registry ? state.registry.instance({ ...options, ...(context.era === undefined ? {} : { era: context.era }) }) : factory(context);
  const shared: McpServerFactory = (context) => {
    const state = build();
    return state instanceof Promise ? state.then((s) => serve(s, context)) : serve(state, context);
  };
  const sharing: Sharing = {
    factory: shared,
    ready: async () => (await build()).registry,
    now: () => (built === undefined || built instanceof Promise ? undefined : built.registry),
  };
  (shared as { [SHARING]?: Sharing })[SHARING] = sharing;
  return options.http ? withOptions(sharing, options) : sharing;
}

/** The same registry, with instances made for `options` (an HTTP host marks its connections). */
function withOptions(sharing: Sharing, options: InstanceOptions): Sharing {
  const factory: McpServerFactory = async (context) => {
    const registry = await sharing.ready();
    return registry ? registry.instance({ ...options, ...(context.era === undefined ? {} : { era: context.era }) }) : sharing.factory(context);
  };
  (factory as { [SHARING]?: Sharing })[SHARING] = sharing;
  return { ...sharing, factory };
}
