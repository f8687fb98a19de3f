/**
 * Replicas behind a load balancer sharing their state in Redis, with real
 * components: redis-server, three replicas of the support-desk example
 * started with MCP_REDIS_URL exactly as the generated entry point reads it,
 * and nginx in front (round-robin; 2025 requests routed by the replica id in
 * their Mcp-Session-Id, the recipe of docs/deploy.md). The handler runs are
 * counted from the replicas' own log, never inferred from answers.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missing } from '../helpers/services.js';
import { startFleet, type Fleet } from './harness.js';
import { ERAS, callSettled, connectClient, connectSettled, draftArgs, textOf } from './client.js';

const skip = missing('redis-server', 'nginx');
const N = 12;

describe.skipIf(skip !== undefined)(`three replicas behind nginx, sharing Redis${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let fleet: Fleet;
  beforeAll(async () => {
    fleet = await startFleet({ tenants: ['acme', 'acme', 'acme'] });
  }, 120_000);
  afterAll(() => fleet?.stop());
  const lb = (): string => fleet.balancer!.url;
  const runsOf = (kind: string, key: string): string[] => fleet.runs().filter((line) => line.startsWith(`${kind} `) && line.endsWith(` ${key}`));

  it('answers the health endpoint on every replica and through the balancer, with the store reachable', async () => {
    for (const replica of fleet.replicas) {
      const response = await fetch(`http://127.0.0.1:${replica.port}/healthz`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: 'ok', replica: replica.id, inFlight: 0, store: 'redis: ok' });
    }
    const through = await fetch(lb().replace('/mcp', '/healthz'));
    expect(through.status).toBe(200);
  });

  it.each(ERAS)('runs one key sent concurrently 12 times over the replicas exactly once; every caller gets the same result ($era)', async (era) => {
    const key = `conc-${randomUUID()}`;
    const before = fleet.balancer!.upstreams().length;
    const clients = await Promise.all(Array.from({ length: N }, () => connectClient(lb(), era)));
    try {
      const results = await Promise.all(clients.map((c) => callSettled(() => c, 'refunds.create_draft', draftArgs(key))));
      expect(runsOf('start', key)).toHaveLength(1);
      expect(runsOf('effect', key)).toHaveLength(1);
      for (const r of results) {
        expect(r.isError, textOf(r)).toBeFalsy();
        expect(r.structuredContent).toEqual(results[0]!.structuredContent);
      }
      expect(results[0]!.structuredContent).toMatchObject({ invoiceId: 'INV-2001', status: 'draft' });
      // The calls really were spread: the balancer sent them to every replica.
      expect(new Set(fleet.balancer!.upstreams().slice(before)).size).toBe(fleet.replicas.length);
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
  });

  it.each(ERAS)('refuses through replica B an approval receipt consumed through replica A ($era)', async (era) => {
    const [a, b] = fleet.replicas;
    const receipt = `approved-${randomUUID()}`;
    const viaA = await connectClient(a!.url, era);
    const viaB = await connectClient(b!.url, era);
    try {
      const first = await viaA.callTool({ name: 'refunds.submit', arguments: { draftId: 'RD-1', idempotencyKey: `k-${randomUUID()}`, approvalReceipt: receipt } });
      expect(first.isError, textOf(first)).toBeFalsy();
      const keyB = `k-${randomUUID()}`;
      const second = await viaB.callTool({ name: 'refunds.submit', arguments: { draftId: 'RD-1', idempotencyKey: keyB, approvalReceipt: receipt } });
      expect(second.isError).toBe(true);
      expect(textOf(second)).toContain('this approval was already used');
      expect(runsOf('submit', keyB)).toEqual([]);
    } finally {
      await viaA.close();
      await viaB.close();
    }
  });

  it('answers a 2025 session that another replica opened with 404 naming the owner and sticky routing', async () => {
    const [a, b] = fleet.replicas;
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const init = await fetch(a!.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
    });
    const session = init.headers.get('mcp-session-id');
    await init.body?.cancel();
    expect(session).toMatch(new RegExp(`^${a!.id}\\.`));
    const elsewhere = await fetch(b!.url, { method: 'POST', headers: { ...headers, 'mcp-session-id': session!, 'mcp-protocol-version': '2025-11-25' }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) });
    expect(elsewhere.status).toBe(404);
    const body = (await elsewhere.json()) as { error: { message: string } };
    expect(body.error.message).toContain(`opened on replica ${a!.id}`);
    expect(body.error.message).toContain('Mcp-Session-Id');
  });

  it('keeps working for a read tool while Redis is down, refuses the gated tool with a clear error, and recovers (keys and events)', async () => {
    const client = await connectClient(lb(), ERAS[1]);
    const key = `outage-${randomUUID()}`;
    const listener = await connectClient(fleet.replicas[1]!.url, ERAS[1]);
    const updates: string[] = [];
    listener.setNotificationHandler('notifications/resources/updated', (n) => {
      updates.push(n.params.uri);
    });
    const listen = await listener.listen({ resourceSubscriptions: ['support://tickets/T-1007'] });
    try {
      await fleet.redis.stop();
      const read = await client.callTool({ name: 'tickets.get', arguments: { ticketId: 'T-1001' } });
      expect(read.isError, textOf(read)).toBeFalsy();
      const refused = await client.callTool({ name: 'refunds.create_draft', arguments: draftArgs(key) });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/temporarily unavailable .*nothing was done/);
      const health = (await (await fetch(`http://127.0.0.1:${fleet.replicas[0]!.port}/healthz`)).json()) as { store: string };
      expect(health.store).toBe('redis: unavailable');
      expect(runsOf('start', key)).toEqual([]);
      await fleet.redis.start();
      // After the restart: exactly one run, then replays, whichever replica answers.
      let first: Awaited<ReturnType<typeof callSettled>> | undefined;
      for (let i = 0; i < 200 && !first; i++) {
        const r = await client.callTool({ name: 'refunds.create_draft', arguments: draftArgs(key) });
        if (!r.isError) first = r;
        else await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(first, 'the gated tool works again after Redis restarted').toBeDefined();
      // Every replica replays it once its own connection is back (each reconnects on its own schedule).
      const replayed = new Set<string>();
      for (let i = 0; i < 400 && replayed.size < fleet.replicas.length; i++) {
        const replica = fleet.replicas[i % fleet.replicas.length]!;
        const direct = await connectClient(replica.url, ERAS[1]);
        const again = await direct.callTool({ name: 'refunds.create_draft', arguments: draftArgs(key) });
        await direct.close();
        if (again.isError) {
          expect(textOf(again)).toMatch(/temporarily unavailable/);
          await new Promise((resolve) => setTimeout(resolve, 50));
          continue;
        }
        expect(again.structuredContent).toEqual(first!.structuredContent);
        replayed.add(replica.id);
      }
      expect(replayed.size).toBe(fleet.replicas.length);
      expect(runsOf('effect', key)).toHaveLength(1);
      // Change events flow again: the subscriber connections subscribed anew after the restart.
      for (let i = 0; i < 100 && updates.length === 0; i++) {
        const writer = await connectClient(fleet.replicas[0]!.url, ERAS[1]);
        await writer.callTool({ name: 'refunds.create_draft', arguments: draftArgs(`after-${randomUUID()}`, 7) });
        await writer.close();
        for (let j = 0; j < 20 && updates.length === 0; j++) await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(updates[0]).toBe('support://tickets/T-1007');
    } finally {
      await listen.close();
      await listener.close();
      await client.close();
    }
  });

  it('a replica killed with SIGKILL mid-call: the retry through another replica waits for the lease, then runs once', async () => {
    const victim = fleet.replicas[2]!;
    const key = `kill-${randomUUID()}`;
    fleet.hold();
    const direct = await connectClient(victim.url, ERAS[1]);
    const doomed = direct.callTool({ name: 'refunds.create_draft', arguments: draftArgs(key) }).catch((e: unknown) => e);
    for (let i = 0; i < 400 && runsOf('start', key).length === 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(runsOf('start', key)).toEqual([`start ${victim.id} ${key}`]);
    await victim.kill();
    await doomed;
    fleet.release();
    const client = await connectSettled(lb(), ERAS[1]);
    try {
      const retried = await callSettled(() => client, 'refunds.create_draft', draftArgs(key));
      expect(retried.isError, textOf(retried)).toBeFalsy();
      const starts = runsOf('start', key);
      expect(starts).toHaveLength(2);
      expect(starts[1]).not.toContain(victim.id);
      expect(runsOf('effect', key)).toHaveLength(1);
      const again = await callSettled(() => client, 'refunds.create_draft', draftArgs(key));
      expect(again.structuredContent).toEqual(retried.structuredContent);
      expect(runsOf('start', key)).toHaveLength(2);
    } finally {
      await client.close();
      await direct.close().catch(() => undefined);
    }
  });
});
