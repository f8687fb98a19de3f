/**
 * 2026-07-28 requests over HTTP reuse server instances whose exchange has finished, instead of building
 * (and registering every primitive of) a new one per request; callers stay isolated, since the runtime
 * reads identity from each request and never from the instance.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { AuthInfo, McpServerFactory } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { startHttpServer, type HttpHostOptions, type HttpServerHandle } from '../../generator/runtime/index.js';
import { createServer } from './fixture.js';

const quiet = { write: () => true };
const expiresAt = Math.floor(Date.now() / 1000) + 3600;
let host: HttpServerHandle | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

/** Starts the fixture server with a verifier that knows `principals` (token = principal = tenant-less caller). */
async function start(principals: readonly string[], options: HttpHostOptions = {}): Promise<{ builds: () => number }> {
  let built = 0;
  let url = '';
  const factory: McpServerFactory = (ctx) => {
    built++;
    return createServer({ era: ctx.era, stderr: quiet });
  };
  host = await startHttpServer(factory, {
    port: 0,
    stderr: quiet,
    ...options,
    auth: {
      verifier: {
        async verifyAccessToken(token: string): Promise<AuthInfo> {
          if (!principals.includes(token)) throw new Error('unknown token');
          return { token, clientId: token, scopes: [`scope-of-${token}`], expiresAt, resource: new URL(url), extra: { sub: token, tenant: `tenant-of-${token}` } };
        },
      },
    },
  });
  url = host.url;
  return { builds: () => built };
}

async function modernClient(token: string): Promise<Client> {
  const client = new Client({ name: 'reuse-test', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(host!.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

/** The `progress` fixture tool answers with the identity the handler saw. */
async function whoami(client: Client): Promise<unknown> {
  const result = await client.callTool({ name: 'progress', arguments: {} });
  expect(result.isError).toBeFalsy();
  return (result.structuredContent as { principal: unknown; scopes: unknown }).principal;
}

describe('2026-07-28 HTTP requests reuse finished instances', () => {
  it('builds one instance for sequential requests, and one per request with instances: per-request', async () => {
    const reuse = await start(['alice']);
    const client = await modernClient('alice');
    for (let i = 0; i < 20; i++) await whoami(client);
    await client.close();
    const reused = reuse.builds();
    expect(reused).toBeLessThanOrEqual(2); // the discover probe and the calls may overlap once
    await host!.close();

    const fresh = await start(['alice'], { instances: 'per-request' });
    const again = await modernClient('alice');
    for (let i = 0; i < 20; i++) await whoami(again);
    await again.close();
    expect(fresh.builds()).toBeGreaterThanOrEqual(21);
  });

  it('keeps concurrent callers of different principals apart on shared instances', async () => {
    const principals = Array.from({ length: 12 }, (_, i) => `p${i}`);
    const reuse = await start(principals);
    const clients = await Promise.all(principals.map((p) => modernClient(p)));
    const rounds = 5;
    const seen = await Promise.all(
      clients.map(async (client, i) => {
        const out: unknown[] = [];
        for (let r = 0; r < rounds; r++) out.push(...(await Promise.all([whoami(client), whoami(client)])));
        return { expected: principals[i], out };
      }),
    );
    for (const { expected, out } of seen) expect(out).toEqual(Array(rounds * 2).fill(expected));
    // Instances were shared: far fewer builds than the 12 × 10 requests served.
    expect(reuse.builds()).toBeLessThan(principals.length * rounds * 2);
    await Promise.all(clients.map((c) => c.close()));
  });

  it('never hands a still-serving instance to another request (a slow call and fast calls overlap)', async () => {
    await start(['alice', 'bob']);
    const slow = await modernClient('alice');
    const fast = await modernClient('bob');
    const pending = slow.callTool({ name: 'slow', arguments: {} }); // times out after 50 ms with isError
    const quick = await Promise.all(Array.from({ length: 10 }, () => whoami(fast)));
    expect(quick).toEqual(Array(10).fill('bob'));
    expect((await pending).isError).toBe(true);
    expect(await whoami(slow)).toBe('alice');
    await slow.close();
    await fast.close();
  });
});
