/**
 * Graceful shutdown of a replica on SIGTERM, with Redis: it stops taking new
 * work, lets the call in flight finish and store its outcome, and exits 0; a
 * call still running at the drain deadline has its claim released, so a retry
 * on another replica need not wait for the lease.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { missing } from '../helpers/services.js';
import { startFleet } from './harness.js';
import { ERAS, connectClient, draftArgs, textOf } from './client.js';

const skip = missing('redis-server');

async function until(probe: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await probe()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`never happened: ${what}`);
}

describe.skipIf(skip !== undefined)(`graceful shutdown${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('stops accepting, drains the call in flight (its outcome is stored), then exits 0', async () => {
    const fleet = await startFleet({ tenants: ['acme'], balancer: false, env: { FLEET_TIMEOUT_MS: '60000' } });
    const redis = new Redis(fleet.redis.url, { lazyConnect: true });
    try {
      const [replica] = fleet.replicas;
      const key = `drain-${randomUUID()}`;
      fleet.hold();
      const client = await connectClient(replica!.url, ERAS[1]);
      const inFlight = client.callTool({ name: 'refunds.create_draft', arguments: draftArgs(key) });
      await until(() => fleet.runs().some((l) => l === `start ${replica!.id} ${key}`), 'the call started');
      const exited = replica!.terminate();
      // New work is refused: the listening socket is closed (a balancer moves on to another replica).
      await until(
        () =>
          fetch(`http://127.0.0.1:${replica!.port}/healthz`).then(
            (r) => r.status === 503,
            () => true,
          ),
        'the replica stopped taking new work',
      );
      fleet.release();
      const result = await inFlight;
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(await exited).toBe(0);
      expect(fleet.runs().filter((l) => l.endsWith(key))).toEqual([`start ${replica!.id} ${key}`, `effect ${replica!.id} ${key}`]);
      await redis.connect();
      const records = await redis.keys(`*${key}*`);
      expect(records).toHaveLength(1);
      expect(await redis.hget(records[0]!, 'state')).toBe('completed');
      await client.close().catch(() => undefined);
    } finally {
      redis.disconnect();
      await fleet.stop();
    }
  });

  it('releases the claim of a call still running at the drain deadline, so a retry elsewhere need not wait for its lease', async () => {
    const fleet = await startFleet({ tenants: ['acme'], balancer: false, env: { FLEET_TIMEOUT_MS: '60000' }, args: ['--drain-timeout', '200'] });
    const redis = new Redis(fleet.redis.url, { lazyConnect: true });
    try {
      const [replica] = fleet.replicas;
      const key = `deadline-${randomUUID()}`;
      fleet.hold();
      const client = await connectClient(replica!.url, ERAS[1]);
      const doomed = client.callTool({ name: 'refunds.create_draft', arguments: draftArgs(key) }).catch((e: unknown) => e);
      await until(() => fleet.runs().some((l) => l === `start ${replica!.id} ${key}`), 'the call started');
      await redis.connect();
      expect(await redis.keys(`*${key}*`)).toHaveLength(1);
      expect(await replica!.terminate()).toBe(0);
      await doomed;
      expect(replica!.stderr()).toContain('still running after the drain timeout');
      expect(await redis.keys(`*${key}*`)).toEqual([]);
      expect(fleet.runs().filter((l) => l.startsWith('effect'))).toEqual([]);
    } finally {
      fleet.release();
      redis.disconnect();
      await fleet.stop();
    }
  });
});
