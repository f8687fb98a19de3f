/**
 * stdio hosting: both protocol eras through the SDK's `serveStdio`. stdout
 * belongs to the protocol; nothing here writes to it.
 */
import type { McpServerFactory, Transport } from '@modelcontextprotocol/server';
import { serveStdio, type StdioServerHandle } from '@modelcontextprotocol/server/stdio';

/** Options for {@link startStdioServer}. */
export interface StdioHostOptions {
  /** A transport to serve instead of the process's stdio (tests pass an `InMemoryTransport`). */
  transport?: Transport;
  /** Out-of-band transport errors; default one line on stderr. */
  onerror?: (error: Error) => void;
}

/** Serves `factory` over stdio (or `options.transport`), 2025 and 2026 clients alike. */
export function startStdioServer(factory: McpServerFactory, options: StdioHostOptions = {}): StdioServerHandle {
  return serveStdio(factory, {
    legacy: 'serve',
    ...(options.transport ? { transport: options.transport } : {}),
    onerror: options.onerror ?? ((error) => process.stderr.write(`[mcp-gen] stdio: ${error.message}\n`)),
  });
}
