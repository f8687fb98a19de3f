/**
 * `mcp-gen call --protocol auto` over Streamable HTTP speaks the era the server supports: the newest
 * when it serves both (the generated HTTP host), 2026-07-28 against a server that rejects 2025 traffic,
 * and 2025-11-25 against a server that only has 2025 sessions (it answers the `server/discover` probe
 * with an error, and the client falls back to `initialize`). Each single-era server is the generated
 * support-desk server on the SDK's own transport for that era, and records the era of every instance.
 */
import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { WebStandardStreamableHTTPServerTransport, createMcpHandler } from '@modelcontextprotocol/server';
import { startHttpServer, type HttpServerHandle } from 'mcp-gen/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handlers } from '../../generated/support-desk/handlers.gen.js';
import { createServer } from '../../generated/support-desk/server.gen.js';
import { runCli } from '../helpers/cli.js';
import { repoRoot } from '../helpers/paths.js';

type Era = 'legacy' | 'modern';
const manifest = join(repoRoot, 'manifests/support-desk/mcp.manifest.yaml');
const quiet = { write: () => true };

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** A loopback server on a free port that hands each request to `fetcher` as a web Request. */
async function serve(fetcher: (r: Request) => Promise<Response>): Promise<{ url: string; server: Server }> {
  const server = createHttpServer((req, res) => {
    void (async () => {
      const body = await bodyOf(req);
      const headers = Object.entries(req.headers).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v] as [string, string]] : []));
      const init: RequestInit = { method: req.method ?? 'GET', headers, ...(body.length ? { body: new Uint8Array(body) } : {}) };
      const response = await fetcher(new Request(`http://${req.headers.host}${req.url}`, init));
      response.headers.forEach((value, name) => res.setHeader(name, value));
      res.writeHead(response.status);
      if (response.body) for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) res.write(chunk);
      res.end();
    })().catch(() => res.destroy());
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, server };
}

/** Only 2025-11-25: sessionful Streamable HTTP, one transport and server instance per session. */
function legacyOnly(eras: Era[]): (r: Request) => Promise<Response> {
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  return async (request) => {
    const known = sessions.get(request.headers.get('mcp-session-id') ?? '');
    if (known) return known.handleRequest(request);
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, transport),
    });
    eras.push('legacy');
    await createServer(handlers, { era: 'legacy', audit: false, stderr: quiet }).connect(transport);
    return transport.handleRequest(request);
  };
}

/** Only 2026-07-28: the SDK's handler with 2025 traffic rejected. */
function modernOnly(eras: Era[]): (r: Request) => Promise<Response> {
  const handler = createMcpHandler(() => (eras.push('modern'), createServer(handlers, { era: 'modern', audit: false, stderr: quiet })), { legacy: 'reject' });
  return (request) => handler.fetch(request);
}

const callAuto = (url: string) => runCli(['call', 'tickets.get', 'ticketId=T-1001', '-m', manifest, '--url', url, '--protocol', 'auto'], repoRoot);

describe('mcp-gen call --protocol auto over Streamable HTTP', () => {
  const seen: Record<'legacy' | 'modern' | 'both', Era[]> = { legacy: [], modern: [], both: [] };
  const urls: Record<string, string> = {};
  const servers: Server[] = [];
  let both: HttpServerHandle;

  beforeAll(async () => {
    for (const [name, make] of [['legacy', legacyOnly], ['modern', modernOnly]] as const) {
      const s = await serve(make(seen[name]));
      urls[name] = s.url;
      servers.push(s.server);
    }
    both = await startHttpServer((ctx) => (seen.both.push(ctx.era), createServer(handlers, { era: ctx.era, audit: false })), { port: 0, stderr: quiet, instances: 'per-request' });
    urls['both'] = both.url;
  });
  afterAll(async () => {
    await both.close();
    for (const s of servers) s.close();
  });

  it.each([
    ['2025-11-25 only', 'legacy', 'legacy'],
    ['2026-07-28 only', 'modern', 'modern'],
    ['both eras', 'modern', 'both'],
  ] as const)('against a server of %s it speaks the %s era, and the call succeeds', async (_label, era, server) => {
    seen[server].length = 0;
    const r = await callAuto(urls[server]!);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).structuredContent).toMatchObject({ id: 'T-1001', status: 'open' });
    expect(seen[server]).toContain(era);
    expect(seen[server].filter((e) => e !== era)).toEqual([]);
  }, 120_000);

  it('fails against the 2025-only server when 2026-07-28 is pinned, so auto really chose', async () => {
    const r = await runCli(['call', 'tickets.get', 'ticketId=T-1001', '-m', manifest, '--url', urls['legacy']!, '--protocol', '2026-07-28'], repoRoot);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/could not connect to http:\/\/127\.0\.0\.1:\d+\/mcp/);
  }, 120_000);
});
