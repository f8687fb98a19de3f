import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startHttpServer, type HttpServerHandle } from '../../generator/runtime/index.js';
import { ERAS, createServer } from './fixture.js';

describe('Streamable HTTP host', () => {
  let server: HttpServerHandle;
  const log: string[] = [];
  beforeAll(async () => {
    server = await startHttpServer((ctx) => createServer({ era: ctx.era, stderr: { write: () => true } }), { port: 0, stderr: { write: (t: string) => log.push(t) } });
  });
  afterAll(() => server.close());

  it('listens on an ephemeral localhost port and says so on stderr', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(log.join('')).toContain(`listening on ${server.url}`);
  });

  it.each(ERAS)('serves a $era client', async ({ era, mode }) => {
    const client = new Client({ name: 'http-test', version: '1.0.0' }, { versionNegotiation: { mode } } as ConstructorParameters<typeof Client>[1]);
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    try {
      expect(client.getProtocolEra()).toBe(era);
      const r = await client.callTool({ name: 'tickets.get', arguments: { ticketId: 'T-1234' } });
      expect(r.structuredContent).toEqual({ id: 'T-1234', status: 'open' });
      const bad = await client.callTool({ name: 'tickets.get', arguments: { ticketId: 'x' } });
      expect(bad.isError).toBe(true);
      await expect(client.readResource({ uri: 'support://tickets/a%2Fb' })).rejects.toMatchObject({ code: -32602 });
    } finally {
      await client.close();
    }
  });

  it('delivers a handler\'s ctx.notifyResourceUpdated to 2026 listen streams', async () => {
    const client = new Client({ name: 'http-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } } as ConstructorParameters<typeof Client>[1]);
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    const updates: string[] = [];
    client.setNotificationHandler('notifications/resources/updated', (n) => {
      updates.push(n.params.uri);
    });
    const subscription = await client.listen({ resourceSubscriptions: ['support://tickets/T-1001'] });
    try {
      await client.callTool({ name: 'touch', arguments: { ticketId: 'T-1001' } });
      await client.callTool({ name: 'touch', arguments: { ticketId: 'T-1002' } });
      server.notifyResourceUpdated('support://tickets/T-1001');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(updates).toEqual(['support://tickets/T-1001', 'support://tickets/T-1001']);
    } finally {
      await subscription.close();
      await client.close();
    }
  });

  it('refuses a foreign Host header with 403', async () => {
    const { request } = await import('node:http');
    const url = new URL(server.url);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { host: 'evil.example', 'content-type': 'application/json', accept: 'application/json, text/event-stream' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }));
    });
    expect(status).toBe(403);
  });

  it('refuses a foreign Origin with 403', async () => {
    const res = await fetch(server.url, {
      method: 'POST',
      headers: { origin: 'http://evil.example', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(res.status).toBe(403);
  });

  it('answers 404 off the endpoint path', async () => {
    const res = await fetch(new URL('/other', server.url));
    expect(res.status).toBe(404);
  });
});

describe('allowed hosts', () => {
  it('accepts a listed extra host name', async () => {
    const server = await startHttpServer(() => createServer(), { port: 0, allowedHosts: ['mcp.internal'], stderr: { write: () => true } });
    try {
      const { request } = await import('node:http');
      const url = new URL(server.url);
      const status = await new Promise<number>((resolve, reject) => {
        const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { host: `mcp.internal:${url.port}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }));
      });
      expect(status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
