/**
 * Tenants stay apart over Streamable HTTP: subscriptions (2025 `resources/subscribe` in a session, 2026
 * `subscriptions/listen`) pass the scope and `authorize` gates for every URI when subscribing and again on
 * every delivery, and a 2025 session belongs to the principal that opened it.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, type AuthorizeRequest, type HttpServerHandle } from 'mcp-gen/runtime';
import { handlers } from '../../generated/support-desk/handlers.gen.js';
import { createServer } from '../../generated/support-desk/server.gen.js';

let host: HttpServerHandle;
const expiresAt = Math.floor(Date.now() / 1000) + 3600;

/** Which tenant owns which ticket; tickets of no tenant are readable by anyone with the scope. */
const owners: Record<string, string> = { 'T-1001': 'acme', 'T-1002': 'acme', 'T-1004': 'globex' };
/** URIs whose access was withdrawn after subscribing. */
const revoked = new Set<string>();

function authorize(request: AuthorizeRequest): boolean {
  if (request.uri && revoked.has(request.uri)) return false;
  const ticketId = (request.params as { ticketId?: string } | undefined)?.ticketId;
  const owner = ticketId === undefined ? undefined : owners[ticketId];
  return owner === undefined || owner === request.tenant;
}

function tokens(url: string): Record<string, AuthInfo> {
  const token = (name: string, sub: string, tenant: string, scopes: string[]): AuthInfo => ({ token: name, clientId: 'agent', scopes, expiresAt, resource: new URL(url), extra: { sub, tenant, audiences: ['support-agents'] } });
  return {
    acme: token('acme', 'alice', 'acme', ['tickets:read']),
    'acme-2': token('acme-2', 'alice', 'acme', ['tickets:read']),
    globex: token('globex', 'gus', 'globex', ['tickets:read']),
    'globex-no-scope': token('globex-no-scope', 'gina', 'globex', []),
  };
}

beforeAll(async () => {
  let known: Record<string, AuthInfo> = {};
  host = await startHttpServer((ctx) => createServer(handlers, { era: ctx.era, audit: false, authorize, stderr: { write: () => true } }), {
    port: 0,
    stderr: { write: () => true },
    maxSessionsPerPrincipal: 4,
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

type Mode = { mode: 'legacy' } | { mode: { pin: '2026-07-28' } };
const LEGACY: Mode = { mode: 'legacy' };
const MODERN: Mode = { mode: { pin: '2026-07-28' } };

/** A client of `token` that records every resource update it receives and can wait for one. */
async function watcher(token: string, negotiation: Mode) {
  const client = new Client({ name: 'watcher', version: '1' }, { versionNegotiation: negotiation });
  const updates: string[] = [];
  const waiting = new Map<string, () => void>();
  client.setNotificationHandler('notifications/resources/updated', (n) => {
    updates.push(n.params.uri);
    waiting.get(n.params.uri)?.();
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(host.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  const arrival = (uri: string): Promise<void> => new Promise((resolve) => waiting.set(uri, resolve));
  const follow = async (uris: string[]): Promise<void> => {
    if (negotiation === LEGACY) for (const uri of uris) await client.subscribeResource({ uri });
    else await client.listen({ resourceSubscriptions: uris });
  };
  return { client, updates, arrival, follow };
}

const ticket = (id: string): string => `support://tickets/${id}`;

describe.each([
  ['2025-11-25 session', LEGACY],
  ['2026-07-28 listen', MODERN],
] as const)('subscriptions over HTTP (%s)', (_name, negotiation) => {
  it('refuses a subscription without the resource scope', async () => {
    const w = await watcher('globex-no-scope', negotiation);
    await expect(w.follow([ticket('T-1004')])).rejects.toThrow(/Insufficient scope: required "tickets:read"/);
    await w.client.close();
  });

  it("refuses a subscription to another tenant's resource (authorize)", async () => {
    const w = await watcher('globex', negotiation);
    await expect(w.follow([ticket('T-1001')])).rejects.toThrow(/Forbidden/);
    await w.client.close();
  });

  it("never delivers one tenant's update to another, and checks again on delivery", async () => {
    const acme = await watcher('acme', negotiation);
    const globex = await watcher('globex', negotiation);
    await acme.follow([ticket('T-1002'), ticket('T-1003')]);
    await globex.follow([ticket('T-1004'), ticket('T-1003')]);
    revoked.add(ticket('T-1003'));
    const acmeGot = acme.arrival(ticket('T-1002'));
    const globexGot = globex.arrival(ticket('T-1004'));
    // T-1003 was allowed at subscription time and withdrawn since: nobody receives it.
    host.notifyResourceUpdated(ticket('T-1003'));
    host.notifyResourceUpdated(ticket('T-1002'));
    host.notifyResourceUpdated(ticket('T-1004'));
    await Promise.all([acmeGot, globexGot]);
    revoked.delete(ticket('T-1003'));
    expect(acme.updates).toEqual([ticket('T-1002')]);
    expect(globex.updates).toEqual([ticket('T-1004')]);
    await acme.client.close();
    await globex.client.close();
  });
});

/** Opens a 2025 session with raw HTTP and returns its id. */
async function openSession(token: string): Promise<string> {
  const r = await post(token, undefined, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
  expect(r.status).toBe(200);
  await r.text();
  return r.headers.get('mcp-session-id')!;
}

function post(token: string, session: string | undefined, body: unknown, method = 'POST'): Promise<Response> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
  if (session) headers['mcp-session-id'] = session;
  return fetch(host.url, { method, headers, ...(method === 'POST' ? { body: JSON.stringify(body) } : {}) });
}

async function usable(token: string, session: string): Promise<number> {
  const r = await post(token, session, { jsonrpc: '2.0', id: 2, method: 'ping' });
  await r.text();
  return r.status;
}

describe('2025-era HTTP sessions belong to their principal', () => {
  it("another principal's token can neither use nor DELETE a session", async () => {
    const session = await openSession('acme');
    expect(await usable('globex', session)).toBe(404);
    const deleted = await post('globex', session, undefined, 'DELETE');
    expect(deleted.status).toBe(404);
    expect(await usable('acme', session)).toBe(200);
    // Another token of the same principal (a refreshed token) keeps the session.
    expect(await usable('acme-2', session)).toBe(200);
    // Its owner can end it.
    const ended = await post('acme', session, undefined, 'DELETE');
    expect(ended.status).toBe(200);
    expect(await usable('acme', session)).toBe(404);
  });

  it("one principal's flood of initialize evicts only its own sessions", async () => {
    const victim = await openSession('acme');
    const flood: string[] = [];
    for (let i = 0; i < 12; i++) flood.push(await openSession('globex'));
    expect(await usable('acme', victim)).toBe(200);
    // The flooder keeps at most its cap (4): its oldest sessions were closed.
    expect(await usable('globex', flood[0]!)).toBe(404);
    expect(await usable('globex', flood[11]!)).toBe(200);
  });
});
