/**
 * The conformance suite every `SharedStore` must pass: the same tests for the
 * in-memory default and for Redis. A store under test comes with a `peer`: a
 * second handle on the same state, as another replica would hold it (the same
 * object for the memory store, a second connection for Redis).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IdempotencyClaim, SharedStore, StoreOwner } from '../../generator/runtime/store/types.js';

/** What a store's test file hands the suite. */
export interface StoreUnderTest {
  readonly store: SharedStore;
  /** Another handle on the same shared state. */
  readonly peer: SharedStore;
  /** Closes both handles and whatever was started for them. */
  close(): Promise<void>;
}

/** Options every store under test must honour. */
export interface StoreTestOptions {
  /** Live idempotency records one owner may hold. */
  readonly maxKeysPerOwner: number;
}

/** Polls `probe` until it returns true (bounded), for states that change with time such as lease expiry. */
async function eventually(probe: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await probe()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`never happened: ${what}`);
}

const bob: StoreOwner = { tenant: 'acme', principal: 'bob' };

/** A claim; by default each key has an owner of its own, so only the capacity test meets the per-owner bound. */
function claimOf(key: string, owner: StoreOwner = { tenant: 'acme', principal: `alice-${key}` }, input = 'sha-a', leaseMs = 60_000): IdempotencyClaim {
  return { key: `${owner.tenant}/${owner.principal}/tool/${key}`, owner, inputSha256: input, leaseMs, ttlMs: 600_000 };
}

/** Registers the suite for one store implementation. */
export function storeConformance(name: string, open: (options: StoreTestOptions) => Promise<StoreUnderTest>, skip?: string): void {
  describe.skipIf(skip !== undefined)(`SharedStore conformance: ${name}${skip ? ` (skipped: ${skip})` : ''}`, () => {
    let subject: StoreUnderTest;
    let store: SharedStore;
    let peer: SharedStore;
    beforeAll(async () => {
      subject = await open({ maxKeysPerOwner: 3 });
      store = subject.store;
      peer = subject.peer;
    });
    afterAll(() => subject?.close());
    const fresh = (): string => randomUUID();

    it('claims a new key once; a second claim sees it pending with its input and lease', async () => {
      const claim = claimOf(fresh());
      const first = await store.claimIdempotency(claim);
      expect(first.kind).toBe('claimed');
      const second = await peer.claimIdempotency({ ...claim, inputSha256: 'sha-other' });
      expect(second).toMatchObject({ kind: 'pending', inputSha256: 'sha-a' });
      expect(second.kind === 'pending' && Number.isFinite(second.leaseExpiresAt)).toBe(true);
    });

    it('gives exactly one of many concurrent claims on one key, across handles', async () => {
      const claim = claimOf(fresh());
      const outcomes = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? peer : store).claimIdempotency(claim)));
      expect(outcomes.filter((o) => o.kind === 'claimed')).toHaveLength(1);
      expect(outcomes.filter((o) => o.kind === 'pending')).toHaveLength(39);
    });

    it('replays the stored result, with the input it was stored for, to every later claim', async () => {
      const claim = claimOf(fresh());
      const held = await store.claimIdempotency(claim);
      if (held.kind !== 'claimed') throw new Error('expected a claim');
      const result = { content: [{ type: 'text', text: 'é ✓ "quoted"' }], structuredContent: { n: 1, nested: [null, true] } };
      expect(await store.completeIdempotency(claim.key, held.token, result, claim.ttlMs)).toBe(true);
      expect(await peer.claimIdempotency(claim)).toEqual({ kind: 'completed', inputSha256: 'sha-a', result });
      expect(await store.claimIdempotency({ ...claim, inputSha256: 'sha-b' })).toEqual({ kind: 'completed', inputSha256: 'sha-a', result });
    });

    it('refuses completion, renewal and release by a token that does not hold the claim', async () => {
      const claim = claimOf(fresh());
      const held = await store.claimIdempotency(claim);
      if (held.kind !== 'claimed') throw new Error('expected a claim');
      expect(await peer.completeIdempotency(claim.key, 'not-the-token', { forged: true }, claim.ttlMs)).toBe(false);
      expect(await peer.renewIdempotencyLease(claim.key, 'not-the-token', 60_000)).toBe(false);
      await peer.releaseIdempotency(claim.key, 'not-the-token');
      expect((await peer.claimIdempotency(claim)).kind).toBe('pending');
      expect(await store.renewIdempotencyLease(claim.key, held.token, 60_000)).toBe(true);
      expect(await store.completeIdempotency(claim.key, held.token, 'real', claim.ttlMs)).toBe(true);
      expect(await store.renewIdempotencyLease(claim.key, held.token, 60_000)).toBe(false);
      expect(await peer.claimIdempotency(claim)).toMatchObject({ kind: 'completed', result: 'real' });
    });

    it('frees a released claim for a retry with a new token; a completed record is never released', async () => {
      const claim = claimOf(fresh());
      const first = await store.claimIdempotency(claim);
      if (first.kind !== 'claimed') throw new Error('expected a claim');
      await store.releaseIdempotency(claim.key, first.token);
      const retry = await peer.claimIdempotency(claim);
      expect(retry.kind).toBe('claimed');
      if (retry.kind !== 'claimed') return;
      expect(retry.token).not.toBe(first.token);
      expect(await store.completeIdempotency(claim.key, first.token, 'stale', claim.ttlMs)).toBe(false);
      expect(await peer.completeIdempotency(claim.key, retry.token, 'fresh', claim.ttlMs)).toBe(true);
      await peer.releaseIdempotency(claim.key, retry.token);
      expect(await store.claimIdempotency(claim)).toMatchObject({ kind: 'completed', result: 'fresh' });
    });

    it('lets another caller claim once a lease ends (a holder that died), and the dead holder cannot complete', async () => {
      const claim = claimOf(fresh(), undefined, 'sha-a', 100);
      const dead = await store.claimIdempotency(claim);
      if (dead.kind !== 'claimed') throw new Error('expected a claim');
      let retry: Awaited<ReturnType<SharedStore['claimIdempotency']>> | undefined;
      await eventually(async () => {
        retry = await peer.claimIdempotency({ ...claim, leaseMs: 60_000 });
        return retry.kind === 'claimed';
      }, 'the lease ended');
      if (retry?.kind !== 'claimed') throw new Error('expected a claim');
      expect(await store.completeIdempotency(claim.key, dead.token, 'from the dead', claim.ttlMs)).toBe(false);
      expect(await peer.completeIdempotency(claim.key, retry.token, 'from the retry', claim.ttlMs)).toBe(true);
      expect(await store.claimIdempotency(claim)).toMatchObject({ kind: 'completed', result: 'from the retry' });
    });

    it('keeps a renewed lease alive past its first end', async () => {
      const claim = claimOf(fresh(), undefined, 'sha-a', 150);
      const held = await store.claimIdempotency(claim);
      if (held.kind !== 'claimed') throw new Error('expected a claim');
      expect(await store.renewIdempotencyLease(claim.key, held.token, 60_000)).toBe(true);
      await new Promise((r) => setTimeout(r, 300));
      expect((await peer.claimIdempotency(claim)).kind).toBe('pending');
    });

    it('counts capacity per owner: a full owner is refused new keys, nobody is evicted, others are unaffected', async () => {
      const owner: StoreOwner = { tenant: `t-${fresh()}`, principal: 'flood' };
      const claims = [0, 1, 2].map(() => claimOf(fresh(), owner));
      const tokens: string[] = [];
      for (const c of claims) {
        const o = await store.claimIdempotency(c);
        if (o.kind !== 'claimed') throw new Error(`expected a claim, got ${o.kind}`);
        tokens.push(o.token);
      }
      expect(await peer.claimIdempotency(claimOf(fresh(), owner))).toEqual({ kind: 'full' });
      // Existing keys still answer (pending), and another owner is unaffected.
      expect((await peer.claimIdempotency(claims[0]!)).kind).toBe('pending');
      expect((await store.claimIdempotency(claimOf(fresh(), { ...owner, principal: 'other' }))).kind).toBe('claimed');
      expect((await store.claimIdempotency(claimOf(fresh(), bob))).kind).toBe('claimed');
      // A released claim frees its place.
      await store.releaseIdempotency(claims[1]!.key, tokens[1]!);
      expect((await peer.claimIdempotency(claimOf(fresh(), owner))).kind).toBe('claimed');
    });

    it('consumes a key exactly once across handles, even under concurrency', async () => {
      const key = `approval/${fresh()}`;
      const results = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? peer : store).consumeOnce(key, 60_000)));
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await store.consumeOnce(key, 60_000)).toBe(false);
      expect(await peer.consumeOnce(`approval/${fresh()}`, 60_000)).toBe(true);
    });

    it('forgets a consumed key after its ttl', async () => {
      const key = `approval/${fresh()}`;
      expect(await store.consumeOnce(key, 50)).toBe(true);
      await eventually(() => peer.consumeOnce(key, 60_000), 'the consumed key expired');
    });

    it('delivers a published event to subscribers of its channel on every handle, and not to other channels', async () => {
      const channel = `events/${fresh()}`;
      const seen: string[] = [];
      const other: string[] = [];
      const stop = await peer.subscribe(channel, (m) => seen.push(`peer:${m}`));
      const stopLocal = await store.subscribe(channel, (m) => seen.push(`store:${m}`));
      const stopOther = await peer.subscribe(`${channel}/other`, (m) => other.push(m));
      await store.publish(channel, 'one');
      await eventually(async () => seen.length === 2, 'both subscribers heard the event');
      expect(seen.sort()).toEqual(['peer:one', 'store:one']);
      await stop();
      await store.publish(channel, 'two');
      await eventually(async () => seen.length === 3, 'the remaining subscriber heard the second event');
      // The unsubscribed listener stays silent: an event on a third channel round-trips after it.
      await store.publish(`${channel}/other`, 'marker');
      await eventually(async () => other.length === 1, 'the marker arrived');
      expect(seen.sort()).toEqual(['peer:one', 'store:one', 'store:two']);
      expect(other).toEqual(['marker']);
      await stopLocal();
      await stopOther();
    });
  });
}
