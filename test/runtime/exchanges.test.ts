/**
 * `Exchanges` ends the exchange of a request whose client went away, and only that one: an instance handed
 * to a later request belongs to it, so an earlier request's disconnect (or answer) never closes it.
 */
import { McpServer, type McpServerFactory } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { Exchanges } from '../../generator/runtime/host/exchanges.js';

/** An instance connected to a transport that counts its closes. */
async function instance(): Promise<{ server: McpServer; closes: () => number }> {
  const server = new McpServer({ name: 'exchanges', version: '1' });
  let closes = 0;
  await server.connect({ start: async () => undefined, send: async () => undefined, close: async () => void closes++ } as never);
  return { server, closes: () => closes };
}

/** An instance behind a factory tracked by a new `Exchanges`. */
async function tracked(): Promise<{ exchanges: Exchanges; factory: McpServerFactory; closes: () => number }> {
  const { server, closes } = await instance();
  const exchanges = new Exchanges();
  return { exchanges, factory: exchanges.track(async () => server), closes };
}

const request = (n: number): Request => new Request(`http://localhost/mcp?n=${n}`, { method: 'POST' });
const handOut = (factory: McpServerFactory, req: Request) => factory({ era: 'modern', requestInfo: req } as Parameters<McpServerFactory>[0]);

describe('Exchanges', () => {
  it('closes the exchange of a request whose client went away, once', async () => {
    const { exchanges, factory, closes } = await tracked();
    const req = request(1);
    expect(await handOut(factory, req)).toBeInstanceOf(McpServer);
    exchanges.abort(req);
    expect(closes()).toBe(1);
    exchanges.abort(req);
    expect(closes()).toBe(1);
  });

  it('leaves an answered request nothing to end', async () => {
    const { exchanges, factory, closes } = await tracked();
    const req = request(1);
    await handOut(factory, req);
    exchanges.done(req);
    exchanges.abort(req);
    expect(closes()).toBe(0);
  });

  it('never closes an instance for a request it no longer serves', async () => {
    const { exchanges, factory, closes } = await tracked();
    const first = request(1);
    const second = request(2);
    await handOut(factory, first);
    await handOut(factory, second); // the instance, reused, now serves the second request
    exchanges.abort(first);
    expect(closes()).toBe(0);
    exchanges.done(first);
    exchanges.abort(second);
    expect(closes()).toBe(1);
  });

  it('ties nothing for a factory call without a request, and each tracker keeps its own ties', async () => {
    const a = await instance();
    const b = await instance();
    const one = new Exchanges();
    const two = new Exchanges();
    const req = request(1);
    await one.track(async () => a.server)({ era: 'modern' } as Parameters<McpServerFactory>[0]);
    one.abort(req);
    expect(a.closes()).toBe(0);
    await handOut(one.track(async () => a.server), req);
    await handOut(two.track(async () => b.server), req);
    two.abort(req);
    expect(b.closes()).toBe(1);
    expect(a.closes()).toBe(0);
    one.abort(req);
    expect(a.closes()).toBe(1);
    expect(b.closes()).toBe(1);
  });
});
