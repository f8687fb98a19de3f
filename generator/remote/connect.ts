/**
 * Connecting to any running MCP server with the SDK client: a command over stdio, or a Streamable
 * HTTP URL with extra headers (a bearer token). Shared by `mcp-gen import server` and `mcp-gen verify`.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { UserError } from '../diagnostics.js';

/** Where the server is: a command started over stdio, or a URL. */
export type ServerTarget =
  | { readonly kind: 'stdio'; readonly command: string; readonly args: readonly string[]; readonly env?: Readonly<Record<string, string>> }
  | { readonly kind: 'http'; readonly url: string; readonly headers: Readonly<Record<string, string>> };

/** The protocol era to speak: 2025-11-25 (`initialize`) or 2026-07-28 (`server/discover`). */
export type Era = '2025-11-25' | '2026-07-28';

/** Probing in place: a subclass keeps the 2026 version probe in the same child process (see the SDK notes). */
class InPlaceStdio extends StdioClientTransport {}

/** The last bytes a child wrote on stderr, kept to explain a server that exits before answering. */
const STDERR_TAIL = 2000;

/**
 * Connects an SDK client; the caller closes it. A server that cannot be reached, or exits before it
 * answers, is a {@link UserError} naming it (with the end of its stderr), not a crash.
 */
export async function connectTo(target: ServerTarget, era: Era = '2025-11-25'): Promise<Client> {
  const client = new Client(
    { name: 'mcp-gen', version: '1' },
    { capabilities: {}, ...(era === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}) } as ConstructorParameters<typeof Client>[1],
  );
  let tail = '';
  const transport =
    target.kind === 'stdio'
      ? new InPlaceStdio({ command: target.command, args: [...target.args], stderr: 'pipe', ...(target.env ? { env: { ...(process.env as Record<string, string>), ...target.env } } : {}) })
      : new StreamableHTTPClientTransport(new URL(target.url), { requestInit: { headers: { ...target.headers } } });
  // Always drained, so a chatty server never blocks on a full pipe.
  if (transport instanceof StdioClientTransport) transport.stderr?.on('data', (chunk: Buffer) => (tail = (tail + chunk.toString()).slice(-STDERR_TAIL)));
  try {
    await client.connect(transport);
  } catch (e) {
    const where = target.kind === 'stdio' ? [target.command, ...target.args].join(' ') : target.url;
    const said = tail.trim() ? `; its stderr ends with:\n${tail.trim()}` : '';
    throw new UserError(`${where}: could not open an MCP session (${e instanceof Error ? e.message : String(e)})${said}`);
  }
  return client;
}

/** Parses repeated `--header 'Name: value'` options. */
export function parseHeaders(values: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of values) {
    const i = v.indexOf(':');
    if (i <= 0) throw new Error(`--header ${JSON.stringify(v)}: write it as 'Name: value'`);
    out[v.slice(0, i).trim()] = v.slice(i + 1).trim();
  }
  return out;
}
