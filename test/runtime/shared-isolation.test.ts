/**
 * Every connection of an HTTP process is served by a thin instance over one shared registry. Nothing of one
 * connection reaches another: concurrent callers of different principals and tenants each see their own
 * identity, a log level set in one 2025 session does not change another's, a cancellation ends only the
 * call it names, subscriptions stay with the session that made them, and the registrations really are
 * shared (one registry object, not one per session).
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SharedRegistry, sharingFactory, startHttpServer, type HttpServerHandle } from '../../generator/runtime/index.js';
import { createSwitchServer, seen } from './switch.fixture.js';

let host: HttpServerHandle;
const expiresAt = Math.floor(Date.now() / 1000) + 3600;
let known: Record<string, AuthInfo> = {};

beforeAll(async () => {
  host = await startHttpServer(() => createSwitchServer(), {
    port: 0,
    stderr: { write: () => true },
    auth: { verifier: { verifyAccessToken: async (token: string) => known[token] ?? Promise.reject(new Error('unknown token')) } },
  });
  const token = (name: string, sub: string, tenant: string): AuthInfo => ({ token: name, clientId: 'agent', scopes: [], expiresAt, resource: new URL(host.url), extra: { sub, tenant } });
  known = { acme: token('acme', 'alice', 'acme'), globex: token('globex', 'gus', 'globex') };
});

afterAll(async () => {
  await host.close();
});

type Mode = 'legacy' | { pin: '2026-07-28' };

async function client(token: string, mode: Mode = 'legacy'): Promise<Client> {
  const c = new Client({ name: token, version: '1' }, { versionNegotiation: { mode } });
  await c.connect(new StreamableHTTPClientTransport(new URL(host.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return c;
}

const text = (result: { content?: unknown }): string => ((result.content as { text?: string }[] | undefined)?.[0]?.text ?? '');

describe('shared registry, separate connections (HTTP)', () => {
  it.each([
    ['2025-11-25 sessions', 'legacy'],
    ['2026-07-28 requests', { pin: '2026-07-28' }],
  ] as const)('gives every concurrent caller its own identity (%s)', async (_name, mode) => {
    const acme = await client('acme', mode);
    const globex = await client('globex', mode);
    seen.callers.length = 0;
    const calls = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? acme : globex).callTool({ name: 'whoami', arguments: { wait: true } }));
    const answers = (await Promise.all(calls)).map(text);
    expect(answers).toEqual(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? 'alice/acme' : 'gus/globex')));
    expect(seen.callers.filter((c) => c === 'alice/acme')).toHaveLength(10);
    expect(seen.callers.filter((c) => c === 'gus/globex')).toHaveLength(10);
    await acme.close();
    await globex.close();
  });

  it("keeps each 2025 session's log level to itself", async () => {
    const quiet = await client('acme');
    const loud = await client('globex');
    const heard = { quiet: [] as string[], loud: [] as string[] };
    quiet.setNotificationHandler('notifications/message', (n) => void heard.quiet.push(String(n.params.data)));
    loud.setNotificationHandler('notifications/message', (n) => void heard.loud.push(String(n.params.data)));
    await quiet.setLoggingLevel('error');
    await loud.setLoggingLevel('debug');
    await Promise.all([quiet.callTool({ name: 'say', arguments: { text: 'from quiet' } }), loud.callTool({ name: 'say', arguments: { text: 'from loud' } })]);
    await loud.callTool({ name: 'say', arguments: { text: 'again' } });
    expect(heard.loud).toEqual(['from loud', 'again']);
    expect(heard.quiet).toEqual([]);
    await quiet.close();
    await loud.close();
  });

  it('cancels only the call the client cancelled', async () => {
    const acme = await client('acme');
    const globex = await client('globex');
    seen.aborted.length = 0;
    const first = new AbortController();
    const second = new AbortController();
    const cancelled = acme.callTool({ name: 'alpha', arguments: { wait: true } }, { signal: first.signal });
    const other = globex.callTool({ name: 'alpha', arguments: { wait: true } }, { signal: second.signal, timeout: 60_000 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    first.abort('user cancelled');
    await expect(cancelled).rejects.toThrow();
    await expect.poll(() => seen.aborted).toEqual(['alice/acme']);
    // The other session's call is still running until its own client cancels it.
    second.abort('user cancelled');
    await expect(other).rejects.toThrow();
    await expect.poll(() => seen.aborted).toEqual(['alice/acme', 'gus/globex']);
    await acme.close();
    await globex.close();
  });

  it('keeps 2025 subscriptions with the session that made them', async () => {
    const subscriber = await client('acme');
    const bystander = await client('acme');
    const updates = { subscriber: [] as string[], bystander: [] as string[] };
    let arrived!: () => void;
    const arrival = new Promise<void>((resolve) => (arrived = resolve));
    subscriber.setNotificationHandler('notifications/resources/updated', (n) => {
      updates.subscriber.push(n.params.uri);
      arrived();
    });
    bystander.setNotificationHandler('notifications/resources/updated', (n) => void updates.bystander.push(n.params.uri));
    await subscriber.subscribeResource({ uri: 'memo://pages/7' });
    host.notifyResourceUpdated('memo://pages/8');
    host.notifyResourceUpdated('memo://pages/7');
    await arrival;
    // A round trip on the bystander's session after the update: anything sent to it would have arrived.
    await bystander.listTools();
    expect(updates).toEqual({ subscriber: ['memo://pages/7'], bystander: [] });
    await subscriber.close();
    await bystander.close();
  });
});

describe('a switched-off primitive over HTTP with tokens', () => {
  it('answers a token without its scope as for an unknown tool, not with a 403 challenge that would reveal it', async () => {
    const post = (name: string) =>
      fetch(host.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name, authorization: 'Bearer acme' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: {}, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} } } }),
      });
    expect((await post('vault')).status).toBe(403);
    const unknown = await post('nope');
    host.disable('tool:vault');
    try {
      const refused = await post('vault');
      expect(refused.status).toBe(unknown.status);
      expect((await refused.text()).replace('vault', 'nope')).toBe(await unknown.text());
    } finally {
      host.enable('tool:vault');
    }
  });
});

describe('one registry per process', () => {
  it('serves every connection from the same registration objects, with a protocol object of its own', async () => {
    const sharing = sharingFactory(() => createSwitchServer());
    const registry = await sharing.ready();
    expect(registry).toBeInstanceOf(SharedRegistry);
    const a = await sharing.factory({ era: 'legacy' } as never);
    const b = await sharing.factory({ era: 'legacy' } as never);
    const fields = (s: unknown) => s as { _registeredTools: object; _registeredResources: object; server: object };
    expect(fields(a)._registeredTools).toBe(fields(registry!.template)._registeredTools);
    expect(fields(b)._registeredResources).toBe(fields(registry!.template)._registeredResources);
    expect(fields(a).server).not.toBe(fields(b).server);
    expect(sharingFactory(sharing.factory).now()).toBe(registry);
  });

  it('calls a factory whose product is not a generated server once per connection, as before', async () => {
    let built = 0;
    const { McpServer } = await import('@modelcontextprotocol/server');
    const sharing = sharingFactory(() => (built++, new McpServer({ name: 'plain', version: '1' })));
    expect(await sharing.ready()).toBeUndefined();
    await sharing.factory({ era: 'legacy' } as never);
    await sharing.factory({ era: 'legacy' } as never);
    expect(built).toBe(3);
  });
});
