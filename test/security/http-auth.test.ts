/**
 * Bearer tokens over Streamable HTTP: a generated server behind the author's verifier refuses requests
 * without a token or with a token issued for another server, and takes the caller's identity and scopes
 * from a valid one (in both protocol eras).
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, type HttpServerHandle } from 'mcp-gen/runtime';
import { handlers } from '../../generated/support-desk/handlers.gen.js';
import { createServer } from '../../generated/support-desk/server.gen.js';

let host: HttpServerHandle;
const expiresAt = Math.floor(Date.now() / 1000) + 3600;

/** Tokens the test's verifier knows. `resource` is the server the token was issued for (RFC 8707). */
function tokens(url: string): Record<string, AuthInfo> {
  return {
    reader: { token: 'reader', clientId: 'agent-1', scopes: ['tickets:read'], expiresAt, resource: new URL(url), extra: { sub: 'alice', tenant: 'acme' } },
    'no-scopes': { token: 'no-scopes', clientId: 'agent-2', scopes: [], expiresAt, resource: new URL(url) },
    'other-server': { token: 'other-server', clientId: 'agent-3', scopes: ['tickets:read'], expiresAt, resource: new URL('https://other.example/mcp') },
  };
}

beforeAll(async () => {
  let known: Record<string, AuthInfo> = {};
  host = await startHttpServer((ctx) => createServer(handlers, { era: ctx.era, audit: false }), {
    port: 0,
    stderr: { write: () => true },
    auth: {
      verifier: {
        async verifyAccessToken(token: string) {
          const info = known[token];
          if (!info) throw new Error('unknown token');
          return info;
        },
      },
    },
  });
  known = tokens(host.url);
});

afterAll(async () => {
  await host.close();
});

const eras = [
  ['2025-11-25', { mode: 'legacy' }],
  ['2026-07-28', { mode: { pin: '2026-07-28' } }],
] as const;

async function connect(token: string | undefined, negotiation: (typeof eras)[number][1]): Promise<Client> {
  const client = new Client({ name: 'auth-test', version: '1' }, { versionNegotiation: negotiation });
  const requestInit = token ? { headers: { authorization: `Bearer ${token}` } } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(host.url), { requestInit }));
  return client;
}

describe('bearer tokens over HTTP', () => {
  it('answers 401 with a WWW-Authenticate challenge without a token', async () => {
    const r = await fetch(host.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('refuses a token issued for another server', async () => {
    const r = await fetch(host.url, { method: 'POST', headers: { authorization: 'Bearer other-server', 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
    expect(r.status).toBe(401);
  });

  it.each(eras)('takes identity and scopes from a valid token (%s)', async (_name, negotiation) => {
    const reader = await connect('reader', negotiation);
    const { tools } = await reader.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['tickets.get', 'tickets.search']);
    const ok = await reader.callTool({ name: 'tickets.get', arguments: { ticketId: 'T-1001' } });
    expect(ok.isError).toBeFalsy();
    // A declared scope the token lacks is an HTTP 403 insufficient_scope challenge naming it (step-up).
    await expect(reader.callTool({ name: 'refunds.create_draft', arguments: { invoiceId: 'INV-2001', amountMinor: 100, currency: 'EUR', reasonCode: 'duplicate', idempotencyKey: 'k-1' } })).rejects.toThrow(
      /Insufficient scope: required "refunds:draft"/,
    );
    await reader.close();

    const none = await connect('no-scopes', negotiation);
    expect((await none.listTools()).tools).toEqual([]);
    await none.close();
  });
});
