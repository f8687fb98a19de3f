/**
 * A method the server does not serve, over 2026-07-28 HTTP with auditing on: answered HTTP 404 with
 * JSON-RPC -32601 as the specification requires (SEP-2575), and audited all the same.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHttpServer, type AuditEvent, type HttpServerHandle } from '../../generator/runtime/index.js';
import { createServer } from './fixture.js';

const events: AuditEvent[] = [];
let host: HttpServerHandle;
beforeAll(async () => {
  host = await startHttpServer((ctx) => createServer({ era: ctx.era, audit: (e) => void events.push(e), stderr: { write: () => true } }), { port: 0, stderr: { write: () => true } });
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
