/**
 * The Redis store against a real redis-server started for this file: the
 * conformance suite, then what only a networked store has (namespacing,
 * timeouts, outages and recovery).
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisStore, redactUrl, type RedisStore } from '../../generator/runtime/store/redis.js';
import { StoreUnavailableError } from '../../generator/runtime/store/types.js';
import { missing, startRedis, type RedisServer } from '../helpers/services.js';
import { storeConformance } from './conformance.js';

const skip = missing('redis-server');
const quiet = { onEvent: () => undefined };

storeConformance(
  'redis',
  async ({ maxKeysPerOwner }) => {
    const redis = await startRedis();
    const server = `conformance-${randomUUID()}`;
    const store = await createRedisStore({ url: redis.url, server, maxKeysPerOwner, ...quiet });
    const peer = await createRedisStore({ url: redis.url, server, maxKeysPerOwner, ...quiet });
    return {
      store,
      peer,
      async close() {
        await store.close();
        await peer.close();
        await redis.stop();
      },
    };
  },
  skip,
);

describe.skipIf(skip !== undefined)(`Redis store beyond conformance${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let redis: RedisServer;
  let raw: Redis;
  beforeAll(async () => {
    redis = await startRedis();
    raw = new Redis(redis.url, { lazyConnect: true });
    await raw.connect();
  });
  afterAll(async () => {
    raw?.disconnect();
    await redis?.stop();
  });

  it('namespaces every key under prefix and server, and owner indexes by tenant and principal', async () => {
    const store = await createRedisStore({ url: redis.url, server: 'ns test', prefix: 'pfx', ...quiet });
    const other = await createRedisStore({ url: redis.url, server: 'another', prefix: 'pfx', ...quiet });
    try {
      const claim = { key: 'k1', owner: { tenant: 'acme:corp', principal: 'alice' }, inputSha256: 's', leaseMs: 60_000, ttlMs: 60_000 };
      expect((await store.claimIdempotency(claim)).kind).toBe('claimed');
      // The same key on another server is a different record.
      expect((await other.claimIdempotency(claim)).kind).toBe('claimed');
      expect(await store.consumeOnce('r1', 60_000)).toBe(true);
      const keys = (await raw.keys('pfx:*')).sort();
      expect(keys).toEqual(['pfx:another:idem:k1', 'pfx:another:owner:acme%3Acorp:alice', 'pfx:ns%20test:idem:k1', 'pfx:ns%20test:once:r1', 'pfx:ns%20test:owner:acme%3Acorp:alice']);
      expect(await raw.pttl('pfx:ns%20test:idem:k1')).toBeGreaterThan(0);
    } finally {
      await store.close();
      await other.close();
    }
  });

  it('releases the claims it still holds when closed, so a retry elsewhere need not wait for the lease', async () => {
    const server = `close-${randomUUID()}`;
    const store = await createRedisStore({ url: redis.url, server, ...quiet });
    const peer = await createRedisStore({ url: redis.url, server, ...quiet });
    try {
      const claim = { key: 'held', owner: { principal: 'p' }, inputSha256: 's', leaseMs: 600_000, ttlMs: 600_000 };
      expect((await store.claimIdempotency(claim)).kind).toBe('claimed');
      expect((await peer.claimIdempotency(claim)).kind).toBe('pending');
      await store.close();
      expect((await peer.claimIdempotency(claim)).kind).toBe('claimed');
    } finally {
      await peer.close();
    }
  });

  it('times a command out with StoreUnavailableError instead of hanging when Redis stops answering', async () => {
    const store = await createRedisStore({ url: redis.url, server: `pause-${randomUUID()}`, commandTimeoutMs: 200, ...quiet });
    try {
      await raw.call('CLIENT', 'PAUSE', '1500', 'ALL');
      await expect(store.consumeOnce('during-pause', 60_000)).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(store.ping()).rejects.toThrow(/did not answer/);
    } finally {
      await raw.call('CLIENT', 'UNPAUSE');
      await store.close();
    }
  });

  it('fails every call with StoreUnavailableError while Redis is down, and works again after it restarts', async () => {
    const own = await startRedis();
    const events: string[] = [];
    const store: RedisStore = await createRedisStore({ url: own.url, server: 'outage', onEvent: (m) => events.push(m) });
    try {
      const claim = { key: 'k', owner: { principal: 'p' }, inputSha256: 's', leaseMs: 60_000, ttlMs: 60_000 };
      await own.stop();
      await expect(store.claimIdempotency(claim)).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(store.consumeOnce('x', 1000)).rejects.toThrow(`Redis at ${own.url}`);
      await expect(store.publish('c', 'm')).rejects.toBeInstanceOf(StoreUnavailableError);
      expect(events.some((m) => m.includes('unavailable') && m.includes('gated calls are refused'))).toBe(true);
      await own.start();
      for (let i = 0; i < 200; i++) {
        try {
          await store.ping();
          break;
        } catch {
          await new Promise((r) => setTimeout(r, 50));
        }
      }
      expect((await store.claimIdempotency(claim)).kind).toBe('claimed');
      expect(events.some((m) => m.includes('reachable again'))).toBe(true);
    } finally {
      await store.close();
      await own.stop();
    }
  });

  it('refuses to start with a clear error when Redis cannot be reached, without printing its password', async () => {
    const url = 'redis://user:s3cret@127.0.0.1:1';
    const error = await createRedisStore({ url, server: 's', connectTimeoutMs: 500, ...quiet }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(String((error as Error).message)).toContain('cannot reach Redis at redis://user:***@127.0.0.1:1');
    expect(String((error as Error).message)).not.toContain('s3cret');
    expect(redactUrl('redis://:pw@h:1/2')).toBe('redis://:***@h:1/2');
  });
});
