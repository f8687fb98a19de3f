/** The in-memory SharedStore: leases, per-owner capacity that never evicts, single use, in-process events. */
import { describe, expect, it } from 'vitest';
import { createServer } from './fixture.js';
import { StoreUnavailableError, memoryStore, type IdempotencyClaim } from '../../generator/runtime/index.js';

const alice = { tenant: 'acme', principal: 'alice' };
const claim = (key: string, extra: Partial<IdempotencyClaim> = {}): IdempotencyClaim => ({ key, owner: alice, inputSha256: 'h1', leaseMs: 100, ttlMs: 1000, ...extra });

describe('memoryStore idempotency', () => {
  it('claims once, answers pending while the lease lives, stores and replays the outcome, expires it', async () => {
    let now = 0;
    const store = memoryStore({ clock: () => now });
    const first = await store.claimIdempotency(claim('k'));
    expect(first.kind).toBe('claimed');
    const token = first.kind === 'claimed' ? first.token : '';
    expect(await store.claimIdempotency(claim('k', { inputSha256: 'h2' }))).toEqual({ kind: 'pending', inputSha256: 'h1', leaseExpiresAt: 100 });
    expect(await store.completeIdempotency('k', 'not-the-token', { no: 1 }, 1000)).toBe(false);
    expect(await store.completeIdempotency('k', token, { ok: 1 }, 1000)).toBe(true);
    expect(await store.claimIdempotency(claim('k'))).toEqual({ kind: 'completed', inputSha256: 'h1', result: { ok: 1 } });
    now = 1001;
    expect((await store.claimIdempotency(claim('k'))).kind).toBe('claimed');
  });

  it('frees a claim whose lease ended (its holder is gone), and the old holder can no longer complete it', async () => {
    let now = 0;
    const store = memoryStore({ clock: () => now });
    const first = await store.claimIdempotency(claim('k'));
    now = 50;
    const token = first.kind === 'claimed' ? first.token : '';
    expect(await store.renewIdempotencyLease('k', token, 100)).toBe(true);
    now = 149;
    expect((await store.claimIdempotency(claim('k'))).kind).toBe('pending');
    now = 151;
    const second = await store.claimIdempotency(claim('k'));
    expect(second.kind).toBe('claimed');
    expect(await store.completeIdempotency('k', token, 'late', 1000)).toBe(false);
    expect(await store.renewIdempotencyLease('k', token, 100)).toBe(false);
  });

  it('releases only for the holder of the claim', async () => {
    const store = memoryStore();
    const first = await store.claimIdempotency(claim('k'));
    await store.releaseIdempotency('k', 'someone-else');
    expect((await store.claimIdempotency(claim('k'))).kind).toBe('pending');
    await store.releaseIdempotency('k', first.kind === 'claimed' ? first.token : '');
    expect((await store.claimIdempotency(claim('k'))).kind).toBe('claimed');
  });

  it("counts capacity per owner: a full owner is refused new keys, nobody else's record is dropped", async () => {
    const store = memoryStore({ maxRecordsPerOwner: 3 });
    const victim = { tenant: 'acme', principal: 'bob' };
    await store.claimIdempotency(claim('victim', { owner: victim }));
    for (let i = 0; i < 3; i++) expect((await store.claimIdempotency(claim(`m-${i}`, { owner: { principal: 'mallory' } }))).kind).toBe('claimed');
    for (let i = 3; i < 50; i++) expect(await store.claimIdempotency(claim(`m-${i}`, { owner: { principal: 'mallory' } }))).toEqual({ kind: 'full' });
    expect((await store.claimIdempotency(claim('victim', { owner: victim }))).kind).toBe('pending');
    expect((await store.claimIdempotency(claim('victim-2', { owner: victim }))).kind).toBe('claimed');
    // The same principal in another tenant is another owner.
    expect((await store.claimIdempotency(claim('m-x', { owner: { tenant: 't2', principal: 'mallory' } }))).kind).toBe('claimed');
  });

  it('gives a full owner room again as its own records expire', async () => {
    let now = 0;
    const store = memoryStore({ clock: () => now, maxRecordsPerOwner: 2 });
    await store.claimIdempotency(claim('a'));
    await store.claimIdempotency(claim('b'));
    expect(await store.claimIdempotency(claim('c'))).toEqual({ kind: 'full' });
    now = 101; // both leases ended: their holders are gone
    expect((await store.claimIdempotency(claim('c'))).kind).toBe('claimed');
  });
});

describe('memoryStore consumeOnce and events', () => {
  it('consumes a key once within its TTL', async () => {
    let now = 0;
    const store = memoryStore({ clock: () => now });
    expect(await store.consumeOnce('approval-1', 100)).toBe(true);
    expect(await store.consumeOnce('approval-1', 100)).toBe(false);
    expect(await store.consumeOnce('approval-2', 100)).toBe(true);
    now = 101;
    expect(await store.consumeOnce('approval-1', 100)).toBe(true);
  });

  it('delivers published messages to each subscriber of the channel until it unsubscribes', async () => {
    const store = memoryStore();
    const got: string[] = [];
    const off = await store.subscribe('resources', (m) => got.push(`a:${m}`));
    await store.subscribe('resources', () => {
      throw new Error('a broken subscriber');
    });
    await store.subscribe('other', (m) => got.push(`o:${m}`));
    await store.publish('resources', 'x');
    await off();
    await store.publish('resources', 'y');
    expect(got).toEqual(['a:x']);
  });

  it('refuses every call once closed', async () => {
    const store = memoryStore();
    await store.close();
    await expect(store.consumeOnce('k', 1)).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(store.claimIdempotency(claim('k'))).rejects.toBeInstanceOf(StoreUnavailableError);
  });
});

describe('createServer store options', () => {
  it('refuses the replaced idempotencyStore option instead of silently ignoring it', () => {
    expect(() => createServer({ idempotencyStore: {} } as never)).toThrow(/idempotencyStore was replaced by ServerOptions.store/);
  });
});
