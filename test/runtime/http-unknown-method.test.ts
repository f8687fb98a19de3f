/**
 * Refusals over 2026-07-28 HTTP with auditing on: a method the server does not serve is answered HTTP 404
 * with JSON-RPC -32601 as the specification requires (SEP-2575) and audited all the same; a listen request
 * for a URI the caller may not follow is refused and audited.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHttpServer, type AuditEvent, type HttpServerHandle } from '../../generator/runtime/index.js';
import { createServer } from './fixture.js';

const events: AuditEvent[] = [];
let host: HttpServerHandle;
beforeAll(async () => {
  host = await startHttpServer((ctx) => createServer({ era: ctx.era, scopes: [], audit: (e) => void events.push(e), stderr: { write: () => true } }), { port: 0, stderr: { write: () => true } });
});
afterAll(() => host.close());

it('answers an unknown method with HTTP 404 and -32601, and audits it', async () => {
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
  const res = await fetch(host.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'mcpgen/no-such-method' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'mcpgen/no-such-method', params: { _meta: meta } }),
  });
  expect(res.status).toBe(404);
  expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32601);
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(events.map((e) => [e.kind, e.name, e.outcome])).toContainEqual(['request', 'mcpgen/no-such-method', 'not_found']);
});

it('refuses and audits a 2026 listen request for a resource the caller lacks the scope of', async () => {
  const client = new Client({ name: 't', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(host.url)));
  try {
    await expect(client.listen({ resourceSubscriptions: ['support://tickets/T-1001'] })).rejects.toThrow(/tickets:read/);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(events.map((e) => [e.kind, e.name, e.outcome])).toContainEqual(['subscription', 'support://tickets/T-1001', 'forbidden']);
  } finally {
    await client.close();
  }
});
