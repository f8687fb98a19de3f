/**
 * Exactly one effect per idempotency key, in both eras: keys are scoped to tenant, principal and tool;
 * a pending record is never evicted; a flood fills only its own owner's capacity; a retry while the first
 * run goes on answers "in progress"; after a timeout a retry gets the first run's late outcome.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoryStore, type AuditEvent, type SharedStore } from '../../generator/runtime/index.js';
import { ERAS, connect, control, createServer, latch, seen } from './fixture.js';

const text = (r: { content?: unknown }) => ((r.content as { text?: string }[] | undefined) ?? []).map((c) => c.text).join('\n');
const quiet = { write: () => true };
/** Lets queued promise callbacks (a late handler outcome being stored) run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

beforeEach(() => {
  seen.effects.length = 0;
  control.hold = undefined;
});
afterEach(() => {
  control.hold = undefined;
});

describe.each(ERAS)('idempotency ($era era)', ({ mode }) => {
  const open = (store: SharedStore, who: { tenant?: string; principal?: string } = {}, extra: object = {}) =>
    connect(mode, (ctx) => createServer({ era: ctx.era, store, stderr: quiet, ...who, ...extra }));

  it('answers "in progress" to a retry while the first run goes on, and runs the handler once', async () => {
    const conn = await open(memoryStore());
    try {
      const hold = latch();
      control.hold = hold.promise;
      const first = conn.client.callTool({ name: 'charge', arguments: { amount: 5, idempotencyKey: 'k-1' } });
      await settle();
      const retry = await conn.client.callTool({ name: 'charge', arguments: { amount: 5, idempotencyKey: 'k-1' } });
      expect(retry.isError).toBe(true);
      expect(text(retry)).toMatch(/^In progress: a charge call with this idempotencyKey is still running/);
      hold.open();
      expect(text(await first)).toBe('charged 1');
      const replay = await conn.client.callTool({ name: 'charge', arguments: { amount: 5, idempotencyKey: 'k-1' } });
      expect(text(replay)).toBe('charged 1');
      expect(seen.effects).toHaveLength(1);
    } finally {
      await conn.close();
    }
  });

  it("never evicts another owner's pending key: a flood of new keys is refused for the flooding owner only", async () => {
    const store = memoryStore({ maxRecordsPerOwner: 20 });
    const victim = await open(store, { tenant: 'acme', principal: 'alice' });
    const flooder = await open(store, { tenant: 'evil', principal: 'mallory' });
    try {
      const hold = latch();
      control.hold = hold.promise;
      const first = victim.client.callTool({ name: 'charge', arguments: { amount: 1, idempotencyKey: 'victim-key' } });
      await settle();
      control.hold = undefined;
      const refusals: string[] = [];
      for (let i = 0; i < 30; i++) {
        const r = await flooder.client.callTool({ name: 'charge', arguments: { amount: 1, idempotencyKey: `flood-${i}` } });
        if (r.isError) refusals.push(text(r));
      }
      expect(refusals).toHaveLength(10);
      expect(refusals[0]).toMatch(/^Too many open operations/);
      // The victim's key is still held: a retry neither runs the handler again nor runs concurrently.
      const retry = await victim.client.callTool({ name: 'charge', arguments: { amount: 1, idempotencyKey: 'victim-key' } });
      expect(text(retry)).toMatch(/^In progress/);
      hold.open();
      await first;
      expect(seen.effects.filter((e) => e.includes('victim-key'))).toHaveLength(1);
      // And the victim is not refused for capacity: its own owner is far from full.
      expect((await victim.client.callTool({ name: 'charge', arguments: { amount: 2, idempotencyKey: 'victim-key-2' } })).isError).toBeFalsy();
    } finally {
      await victim.close();
      await flooder.close();
    }
  });

  it('keys are per tenant and principal: the same key from another caller is a separate operation', async () => {
    const store = memoryStore();
    const a = await open(store, { tenant: 'acme', principal: 'alice' });
    const b = await open(store, { tenant: 'globex', principal: 'alice' });
    try {
      expect(text(await a.client.callTool({ name: 'charge', arguments: { amount: 1, idempotencyKey: 'shared' } }))).toBe('charged 1');
      expect(text(await b.client.callTool({ name: 'charge', arguments: { amount: 1, idempotencyKey: 'shared' } }))).toBe('charged 2');
      expect(seen.effects).toHaveLength(2);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('after a timeout whose outcome is unknown, a retry gets the first outcome once known, never a second effect', async () => {
    const events: AuditEvent[] = [];
    const conn = await open(memoryStore(), {}, { audit: (e: AuditEvent) => void events.push(e) });
    try {
      const hold = latch();
      control.hold = hold.promise;
      const first = await conn.client.callTool({ name: 'charge_slowly', arguments: { amount: 9, idempotencyKey: 'slow-1' } });
      expect(text(first)).toMatch(/^Tool charge_slowly timed out after 50 ms; its outcome is not known yet/);
      const during = await conn.client.callTool({ name: 'charge_slowly', arguments: { amount: 9, idempotencyKey: 'slow-1' } });
      expect(text(during)).toMatch(/^In progress/);
      control.hold = undefined;
      hold.open();
      await hold.promise;
      await settle();
      const after = await conn.client.callTool({ name: 'charge_slowly', arguments: { amount: 9, idempotencyKey: 'slow-1' } });
      expect(text(after)).toBe('charged 1');
      expect(seen.effects).toHaveLength(1);
      expect(events.map((e) => e.outcome)).toEqual(['timeout', 'in_progress', 'replayed']);
    } finally {
      await conn.close();
    }
  });

  it('frees a key whose run outlived its lease (twice the time budget), and refuses the stale run its completion', async () => {
    let now = 0;
    const reported: string[] = [];
    const conn = await open(memoryStore({ clock: () => now }), {}, { onError: (e: unknown) => void reported.push(String(e)) });
    try {
      const hold = latch();
      control.hold = hold.promise;
      expect(text(await conn.client.callTool({ name: 'charge_slowly', arguments: { amount: 1, idempotencyKey: 'lease-1' } }))).toMatch(/timed out/);
      now += 999;
      expect(text(await conn.client.callTool({ name: 'charge_slowly', arguments: { amount: 1, idempotencyKey: 'lease-1' } }))).toMatch(/^In progress/);
      now += 2; // the 1,000 ms lease (the 50 ms budget doubled, at least one second) has ended
      control.hold = undefined;
      expect(text(await conn.client.callTool({ name: 'charge_slowly', arguments: { amount: 1, idempotencyKey: 'lease-1' } }))).toBe('charged 1');
      hold.open();
      await hold.promise;
      await settle();
      expect(reported.some((r) => r.includes('lease of a charge_slowly call ended before it finished'))).toBe(true);
      expect(text(await conn.client.callTool({ name: 'charge_slowly', arguments: { amount: 1, idempotencyKey: 'lease-1' } }))).toBe('charged 1');
    } finally {
      await conn.close();
    }
  });

  it('answers a conflict for the same key with an input that differs only by an own "__proto__" key', async () => {
    const conn = await open(memoryStore());
    try {
      expect(text(await conn.client.callTool({ name: 'charge', arguments: { labels: { env: 'staging' }, idempotencyKey: 'proto-1' } }))).toBe('charged 1');
      const forged = JSON.parse('{"labels":{"env":"staging","__proto__":"production"},"idempotencyKey":"proto-1"}') as Record<string, unknown>;
      const second = await conn.client.callTool({ name: 'charge', arguments: forged });
      expect(text(second)).toMatch(/^Idempotency conflict/);
      expect(seen.effects).toHaveLength(1);
    } finally {
      await conn.close();
    }
  });
});

describe.each(ERAS)('default time budget ($era era)', ({ mode }) => {
  it('times out a tool without timeoutMs under limits.timeoutMs, audits it, and does not hold the call', async () => {
    const events: AuditEvent[] = [];
    const conn = await connect(mode, (ctx) => createServer({ era: ctx.era, stderr: quiet, limits: { timeoutMs: 30 }, audit: (e) => void events.push(e) }));
    try {
      const r = await conn.client.callTool({ name: 'hang', arguments: {} });
      expect(r).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Tool hang timed out after 30 ms.' }] });
      expect(events.map((e) => [e.name, e.outcome])).toEqual([['hang', 'timeout']]);
    } finally {
      await conn.close();
    }
  });
});
