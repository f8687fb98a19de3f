/**
 * What belongs to one connection (a 2025-11-25 session, a stdio connection,
 * one 2026-07-28 exchange) rather than to the server: the instance serving it,
 * the era it speaks, and its 2025 resource subscriptions. Everything else — the
 * registered primitives, their schemas and validators, the callbacks, the
 * runtime — is built once per process and shared by every connection
 * (`shared.ts`), so a callback finds the connection of its request here.
 *
 * A request is tied to its connection by its abort signal: the SDK builds one
 * signal per request and keeps it in every context it derives for that request
 * (request state, the 2025 input-required shim), so the tie cannot point at
 * another caller's connection. The tie is a property of the signal under a
 * symbol only this module holds, not an entry of a `WeakMap` keyed by the
 * signal: V8's young collections keep every key of an old `WeakMap` alive, so
 * such an entry per request kept each request's signal, and everything it
 * reaches, until the next full collection (in a loop, an entry per object
 * promoted 1.2 KB per object on Node 22, and nothing without it).
 */
import type { McpServer, ServerContext } from '@modelcontextprotocol/server';
import type { Identity } from './options.js';

/** The per-connection state a shared server keeps. */
export interface Connection {
  /** The instance serving this connection (its own protocol state: client capabilities, log level, transport). */
  readonly server: McpServer;
  /** The era this connection speaks, once known. */
  era: 'legacy' | 'modern' | undefined;
  /** Whether this connection's requests came over HTTP. */
  overHttp: boolean;
  /** 2025 subscriptions of this connection: URI → the identity that subscribed. */
  readonly uris: Map<string, Identity>;
}

const byServer = new WeakMap<McpServer, Connection>();

/** Where a request's signal keeps its connection. */
const CONNECTION = Symbol('mcp-gen.connection');
type TiedSignal = AbortSignal & { [CONNECTION]?: Connection };

/** The connection `server` serves (created on first use). */
export function connectionFor(server: McpServer, era?: 'legacy' | 'modern'): Connection {
  let connection = byServer.get(server);
  if (connection === undefined) {
    connection = { server, era, overHttp: false, uris: new Map() };
    byServer.set(server, connection);
  }
  return connection;
}

/** The connection of the request `sdk` belongs to, when its instance tied it (see {@link tieRequests}). */
export function connectionOfRequest(sdk: ServerContext): Connection | undefined {
  const signal = sdk.mcpReq?.signal;
  return signal === undefined ? undefined : (signal as TiedSignal)[CONNECTION];
}

type Dispatched = (request: unknown, ctx: ServerContext) => unknown;

/**
 * Ties every request `server` dispatches to its connection, outside every other wrapper (the entry of the
 * SDK's handler map). Call after the last handler is installed; handlers installed later are not tied.
 */
export function tieRequests(server: McpServer): Connection {
  const connection = connectionFor(server);
  const handlers = (server.server as unknown as { _requestHandlers?: unknown })._requestHandlers;
  if (!(handlers instanceof Map)) return connection;
  for (const [method, handler] of [...(handlers as Map<string, Dispatched>)]) {
    handlers.set(method, (request: unknown, ctx: ServerContext) => {
      const signal = ctx?.mcpReq?.signal as TiedSignal | undefined;
      if (signal) signal[CONNECTION] = connection;
      return handler(request, ctx);
    });
  }
  return connection;
}
