/**
 * stdio hosting: both protocol eras through the SDK's `serveStdio`. stdout
 * belongs to the protocol; nothing here writes to it except through the
 * transport.
 *
 * Two things are added around the SDK's transport:
 * - a line bound: the SDK's read buffer closes the whole connection (exit 0)
 *   when one line exceeds its limit; here a line over `maxLineBytes` is
 *   dropped, answered with a JSON-RPC error, and the server keeps serving;
 * - the gate of 2026 `subscriptions/listen`, which `serveStdio` answers
 *   itself: each URI passes the `resources/read` gates of the launch identity
 *   first (see `stdioGate.ts`).
 */
import { Transform, type Readable, type TransformCallback, type Writable } from 'node:stream';
import type { JSONRPCMessage, McpServerFactory, Transport } from '@modelcontextprotocol/server';
import { serveStdio, StdioServerTransport, type StdioServerHandle } from '@modelcontextprotocol/server/stdio';
import { ListenGatedTransport, trackRuntime } from './stdioGate.js';
import { sharingFactory } from '../shared.js';
import { switchesOf, type PrimitiveSwitches } from '../toggle.js';

/** Default bound of one stdio message line: 10 MiB. */
export const DEFAULT_MAX_LINE_BYTES = 10 * 1024 * 1024;

/** Options for {@link startStdioServer}. */
export interface StdioHostOptions {
  /** A transport to serve instead of the process's stdio (tests pass an `InMemoryTransport`). */
  transport?: Transport;
  /** Out-of-band transport errors; default one line on stderr. */
  onerror?: (error: Error) => void;
  /** Longest accepted message line in bytes (process stdio only). Default 10 MiB. */
  maxLineBytes?: number;
  /** Where messages are read from (process stdio only). Default `process.stdin`. */
  stdin?: Readable;
  /** Where messages are written (process stdio only). Default `process.stdout`. */
  stdout?: Writable;
  /** Primitives switched off from the start (`tool:NAME`, `resource:NAME`, `prompt:NAME` or a bare NAME); an unknown entry throws. */
  disable?: readonly string[];
}

/**
 * Passes lines of at most `max` bytes through; a longer line is discarded up to its newline and
 * reported once through `oversized`, so one bad message never reaches the SDK's buffer limit.
 */
export class LineBound extends Transform {
  private length = 0;
  private dropping = false;

  constructor(
    private readonly max: number,
    private readonly oversized: () => void,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline < 0 ? chunk.length : newline + 1;
      const piece = chunk.subarray(start, end);
      if (!this.dropping && this.length + piece.length - (newline < 0 ? 0 : 1) > this.max) {
        this.dropping = true;
        this.oversized();
        // The partial line already passed on must not join the next one: end it, so the SDK drops it as unparsable.
        if (this.length > 0) this.push(Buffer.from('\n'));
      }
      if (!this.dropping) this.push(piece);
      this.length += piece.length;
      if (newline >= 0) {
        this.length = 0;
        this.dropping = false;
      }
      start = end;
    }
    done();
  }
}

/** A running stdio server: the SDK's handle, and the switches of its primitives. */
export interface StdioHostHandle extends StdioServerHandle, PrimitiveSwitches {}

/**
 * Serves `factory` over stdio (or `options.transport`), 2025 and 2026 clients alike. The factory is called
 * once; each connection is served by a thin instance of the registry it built (`shared.ts`).
 */
export function startStdioServer(factory: McpServerFactory, options: StdioHostOptions = {}): StdioHostHandle {
  const onerror = options.onerror ?? ((error: Error) => void process.stderr.write(`[mcp-gen] stdio: ${error.message}\n`));
  const sharing = sharingFactory(factory);
  // A synchronous factory (every generated one) builds the registry right here, so switches work from the start.
  const pending = sharing.ready();
  const switches = switchesOf(sharing.now);
  for (const entry of options.disable ?? []) switches.disable(entry);
  const tracked = trackRuntime(sharing.factory);
  const wire = options.transport ?? processTransport(options, onerror);
  const handle = serveStdio(tracked.factory, {
    legacy: 'serve',
    transport: new ListenGatedTransport(wire, tracked.runtime, onerror),
    onerror,
  });
  pending.catch((error: unknown) => onerror(error instanceof Error ? error : new Error(String(error))));
  return Object.assign(handle, switches);
}

function processTransport(options: StdioHostOptions, onerror: (error: Error) => void): Transport {
  const max = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  let transport: StdioServerTransport | undefined = undefined;
  const bounded = new LineBound(max, () => {
    const message = `Request line exceeds ${max} bytes; it was discarded.`;
    onerror(new Error(message));
    // JSON-RPC answers a request whose id cannot be read with id null; the SDK's message type has no such case.
    const answer = { jsonrpc: '2.0', id: null, error: { code: -32600, message } } as unknown as JSONRPCMessage;
    transport?.send(answer).catch(onerror);
  });
  const stdin = options.stdin ?? process.stdin;
  stdin.pipe(bounded);
  // The SDK's own buffer never sees more than one bounded line plus a chunk.
  transport = new StdioServerTransport(bounded, options.stdout ?? process.stdout, { maxBufferSize: 2 * max + 1024 * 1024 });
  return transport;
}
