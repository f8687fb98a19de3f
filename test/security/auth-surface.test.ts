/**
 * The OAuth resource-server surface of the HTTP host (MCP authorization 2025-11-25 / 2026-07-28, RFC 9728,
 * RFC 6750): Protected Resource Metadata at both well-known forms, `resource_metadata` on every 401, the
 * 403 `insufficient_scope` challenge with `scope`, and a verifier that throws anything is a 401, not a 500.
 */
import type { AuthInfo } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, type HttpServerHandle } from 'mcp-gen/runtime';
import { handlers } from '../../generated/support-desk/handlers.gen.js';
import { createServer } from '../../generated/support-desk/server.gen.js';

const expiresAt = Math.floor(Date.now() / 1000) + 3600;
const log: string[] = [];
let host: HttpServerHandle;
let proxied: HttpServerHandle;
const PUBLIC = new URL('https://mcp.example.com/support/mcp');

async function verifyAccessToken(token: string): Promise<AuthInfo> {
  if (token === 'throws-error') throw new Error('introspection endpoint said: db timeout at 10.0.0.7');
  if (token === 'throws-type-error') throw new TypeError("Cannot read properties of undefined (reading 'sub')");
  if (token === 'throws-string') throw 'not an error object';
  if (token === 'reader') return { token, clientId: 'agent', scopes: ['tickets:read'], expiresAt, resource: new URL(host.url) };
  if (token === 'public') return { token, clientId: 'agent', scopes: ['tickets:read'], expiresAt, resource: PUBLIC };
  throw new Error('unknown token');
}

beforeAll(async () => {
  const factory = (ctx: { era: 'legacy' | 'modern' }) => createServer(handlers, { era: ctx.era, audit: false, stderr: { write: () => true } });
  const stderr = { write: (line: string) => (log.push(line), true) };
  host = await startHttpServer(factory, { port: 0, stderr, auth: { verifier: { verifyAccessToken }, authorizationServers: ['https://auth.example.com'] } });
  proxied = await startHttpServer(factory, { port: 0, stderr, auth: { verifier: { verifyAccessToken }, authorizationServers: ['https://auth.example.com/tenant1'], publicUrl: PUBLIC } });
});

afterAll(async () => {
  await host.close();
  await proxied.close();
});

const origin = (handle: HttpServerHandle): string => new URL(handle.url).origin;

function call(token: string | undefined, body: unknown, url = host.url): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
  if (token) headers['authorization'] = `Bearer ${token}`;
  return fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
}

const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };

describe('Protected Resource Metadata (RFC 9728)', () => {
  it.each(['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource'])('serves %s with the manifest scopes and the configured authorization servers', async (path) => {
    const r = await fetch(`${origin(host)}${path}`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/application\/json/);
    expect(await r.json()).toEqual({
      resource: host.url,
      authorization_servers: ['https://auth.example.com'],
      scopes_supported: ['tickets:read', 'refunds:draft', 'refunds:submit'],
      bearer_methods_supported: ['header'],
    });
  });

  it('behind a proxy, names the public URL as the resource and serves the path-suffixed form for its path', async () => {
    const r = await fetch(`${origin(proxied)}/.well-known/oauth-protected-resource/support/mcp`);
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({ resource: PUBLIC.href, authorization_servers: ['https://auth.example.com/tenant1'] });
    // Tokens are bound to the public URL: one issued for it is accepted.
    const ok = await call('public', initialize, proxied.url);
    expect(ok.status).toBe(200);
    await ok.text();
    const wrong = await call('reader', initialize, proxied.url);
    expect(wrong.status).toBe(401);
  });
});

describe('WWW-Authenticate challenges', () => {
  it('401 without a token points at the metadata document, which serves it', async () => {
    const r = await call(undefined, initialize);
    expect(r.status).toBe(401);
    const challenge = r.headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(/^Bearer /);
    const url = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
    expect(url).toBe(`${origin(host)}/.well-known/oauth-protected-resource/mcp`);
    expect((await fetch(url!)).status).toBe(200);
  });

  it.each(['throws-error', 'throws-type-error', 'throws-string'])('a verifier that %s answers 401 with the reason logged, not a 500', async (token) => {
    log.length = 0;
    const r = await call(token, initialize);
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toMatch(/error="invalid_token".*resource_metadata="/);
    const body = await r.text();
    expect(body).not.toMatch(/10\.0\.0\.7|properties of undefined|not an error object/);
    expect(log.join('')).toMatch(/bearer token refused: (introspection endpoint said|Cannot read properties|not an error object)/);
  });

  it('403 insufficient_scope names the missing scope and the metadata document', async () => {
    const r = await call('reader', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'refunds.submit', arguments: { draftId: 'RD-1', idempotencyKey: 'k' } } });
    expect(r.status).toBe(403);
    const challenge = r.headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(/error="insufficient_scope"/);
    expect(challenge).toMatch(/scope="refunds:submit"/);
    expect(challenge).toMatch(new RegExp(`resource_metadata="${origin(host)}/.well-known/oauth-protected-resource/mcp"`));
  });
});
