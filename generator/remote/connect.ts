/**
 * Connecting to any running MCP server with the SDK client: a command over stdio, or a Streamable
 * HTTP URL with extra headers (a bearer token). Shared by `mcp-gen import server` and `mcp-gen verify`.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

/** Where the server is: a command started over stdio, or a URL. */
export type ServerTarget =
  | { readonly kind: 'stdio'; readonly command: string; readonly args: readonly string[]; readonly env?: Readonly<Record<string, string>> }
  | { readonly kind: 'http'; readonly url: string; readonly headers: Readonly<Record<string, string>> };

/** The protocol era to speak: 2025-11-25 (`initialize`) or 2026-07-28 (`server/discover`). */
export type Era = '2025-11-25' | '2026-07-28';

/** Probing in place: a subclass keeps the 2026 version probe in the same child process (see the SDK notes). */
class InPlaceStdio extends StdioClientTransport {}

/** Connects an SDK client; the caller closes it. */
export async function connectTo(target: ServerTarget, era: Era = '2025-11-25'): Promise<Client> {
  const client = new Client(
    { name: 'mcp-gen', version: '1' },
    { capabilities: {}, ...(era === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}) } as ConstructorParameters<typeof Client>[1],
  );
  const transport =
    target.kind === 'stdio'
      ? new InPlaceStdio({ command: target.command, args: [...target.args], stderr: 'ignore', ...(target.env ? { env: { ...(process.env as Record<string, string>), ...target.env } } : {}) })
      : new StreamableHTTPClientTransport(new URL(target.url), { requestInit: { headers: { ...target.headers } } });
  await client.connect(transport);
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
