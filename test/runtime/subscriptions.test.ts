import { afterEach, describe, expect, it } from 'vitest';
import { connect, createServer, lastRuntime } from './fixture.js';

type Conn = Awaited<ReturnType<typeof connect>>;
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('resource subscriptions', () => {
  let conn: Conn | undefined;
  afterEach(async () => {
    await conn?.close();
    conn = undefined;
  });

  it('2025: subscribe/unsubscribe, notifications only for subscribed URIs', async () => {
    conn = await connect('legacy');
    const updates: string[] = [];
    conn.client.setNotificationHandler('notifications/resources/updated', (n) => {
      updates.push(n.params.uri);
    });
    expect(conn.client.getServerCapabilities()?.resources).toMatchObject({ subscribe: true });
    const rt = lastRuntime!;
    await rt.notifyResourceUpdated('support://tickets/T-1001');
    await conn.client.subscribeResource({ uri: 'support://tickets/T-1001' });
    await rt.notifyResourceUpdated('support://tickets/T-1001');
    await rt.notifyResourceUpdated('support://tickets/T-1002');
    await settle();
    expect(updates).toEqual(['support://tickets/T-1001']);
    await conn.client.unsubscribeResource({ uri: 'support://tickets/T-1001' });
    await rt.notifyResourceUpdated('support://tickets/T-1001');
    await settle();
    expect(updates).toEqual(['support://tickets/T-1001']);
  });

  it('2026 over stdio: subscriptions/listen receives updates for its filter only', async () => {
    conn = await connect({ pin: '2026-07-28' });
    const updates: string[] = [];
    conn.client.setNotificationHandler('notifications/resources/updated', (n) => {
      updates.push(n.params.uri);
    });
    const subscription = await conn.client.listen({ resourceSubscriptions: ['support://tickets/T-1001'] });
    const rt = lastRuntime!;
    await rt.notifyResourceUpdated('support://tickets/T-1001');
    await rt.notifyResourceUpdated('support://tickets/T-1002');
    await settle();
    expect(updates).toEqual(['support://tickets/T-1001']);
    await subscription.close();
  });

  it('2026: works without the era option too (learnt from the connection)', async () => {
    conn = await connect({ pin: '2026-07-28' }, () => createServer({ stderr: { write: () => true } }));
    const updates: string[] = [];
    conn.client.setNotificationHandler('notifications/resources/updated', (n) => {
      updates.push(n.params.uri);
    });
    const subscription = await conn.client.listen({ resourceSubscriptions: ['support://tickets/T-1001'] });
    await lastRuntime!.notifyResourceUpdated('support://tickets/T-1001');
    await settle();
    expect(updates).toEqual(['support://tickets/T-1001']);
    await subscription.close();
  });

  it.each([['legacy'], [{ pin: '2026-07-28' }]] as const)('handlers notify through ctx.notifyResourceUpdated (%j)', async (mode) => {
    conn = await connect(mode);
    const updates: string[] = [];
    conn.client.setNotificationHandler('notifications/resources/updated', (n) => {
      updates.push(n.params.uri);
    });
    if (mode === 'legacy') await conn.client.subscribeResource({ uri: 'support://tickets/T-1001' });
    const subscription = mode === 'legacy' ? undefined : await conn.client.listen({ resourceSubscriptions: ['support://tickets/T-1001'] });
    await conn.client.callTool({ name: 'touch', arguments: { ticketId: 'T-1001' } });
    await conn.client.callTool({ name: 'touch', arguments: { ticketId: 'T-1002' } });
    await settle();
    expect(updates).toEqual(['support://tickets/T-1001']);
    await subscription?.close();
  });
});

describe('subscription gates over stdio (both eras)', () => {
  let conn: Conn | undefined;
  afterEach(async () => {
    await conn?.close();
    conn = undefined;
  });

  const MODES = [['legacy'], [{ pin: '2026-07-28' }]] as const;
  const follow = async (c: Conn, mode: (typeof MODES)[number][0], uri: string): Promise<unknown> =>
    mode === 'legacy' ? c.client.subscribeResource({ uri }) : c.client.listen({ resourceSubscriptions: [uri] });

  it.each(MODES)('refuses a subscription without the resource scope (%j)', async (mode) => {
    conn = await connect(mode, (ctx) => createServer({ era: ctx.era, scopes: [], stderr: { write: () => true } }));
    await expect(follow(conn, mode, 'support://tickets/T-1001')).rejects.toThrow(/requires scope tickets:read/);
  });

  it.each(MODES)('audits a refused subscription (%j)', async (mode) => {
    const events: { kind: string; name: string; outcome: string }[] = [];
    conn = await connect(mode, (ctx) => createServer({ era: ctx.era, scopes: [], audit: (e) => void events.push(e), stderr: { write: () => true } }));
    await expect(follow(conn, mode, 'support://tickets/T-1001')).rejects.toThrow(/requires scope tickets:read/);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(events.map((e) => [e.kind, e.name, e.outcome])).toContainEqual(['subscription', 'support://tickets/T-1001', 'forbidden']);
  });

  it.each(MODES)('refuses a subscription the authorize hook denies (%j)', async (mode) => {
    const authorize = (request: { uri?: string }): boolean => request.uri !== 'support://tickets/T-1002';
    conn = await connect(mode, (ctx) => createServer({ era: ctx.era, authorize, stderr: { write: () => true } }));
    await expect(follow(conn, mode, 'support://tickets/T-1002')).rejects.toThrow(/Forbidden/);
    await follow(conn, mode, 'support://tickets/T-1001');
  });

  it.each(MODES)('checks again on delivery: an update of a URI no longer readable is not sent (%j)', async (mode) => {
    const revoked = new Set<string>();
    const authorize = (request: { uri?: string }): boolean => !revoked.has(request.uri ?? '');
    conn = await connect(mode, (ctx) => createServer({ era: ctx.era, authorize, stderr: { write: () => true } }));
    const updates: string[] = [];
    conn.client.setNotificationHandler('notifications/resources/updated', (n) => {
      updates.push(n.params.uri);
    });
    if (mode === 'legacy') {
      await conn.client.subscribeResource({ uri: 'support://tickets/T-1001' });
      await conn.client.subscribeResource({ uri: 'support://tickets/T-1002' });
    } else await conn.client.listen({ resourceSubscriptions: ['support://tickets/T-1001', 'support://tickets/T-1002'] });
    revoked.add('support://tickets/T-1001');
    const rt = lastRuntime!;
    await rt.notifyResourceUpdated('support://tickets/T-1001');
    await rt.notifyResourceUpdated('support://tickets/T-1002');
    // A round trip after both: anything sent before it has arrived (the in-memory wire keeps order).
    await conn.client.listTools();
    expect(updates).toEqual(['support://tickets/T-1002']);
  });
});
