/**
 * Change events across replicas and tenants: replicas A and B serve tenant
 * acme, C and D tenant globex, all on one Redis. A subscriber on one replica
 * (a 2026 `subscriptions/listen` stream, or a 2025 session that sent
 * `resources/subscribe`) hears an update made through another replica of its
 * tenant, and never one of the other tenant. The negative is checked without
 * a timed wait: Redis delivers a subscriber's messages in publish order, so
 * once a later marker has arrived, an earlier leak would have arrived too.
 */
import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missing } from '../helpers/services.js';
import { startFleet, type Fleet } from './harness.js';
import { ERAS, connectClient, draftArgs, textOf, type Era } from './client.js';

const skip = missing('redis-server');
const URIS = ['support://tickets/T-1001', 'support://tickets/T-1002', 'support://tickets/T-1003'];

/** A subscriber to URIS: a 2026 `subscriptions/listen` stream, or a 2025 session with `resources/subscribe`. */
async function listener(url: string, era: Era): Promise<{ client: Client; updates: string[]; close(): Promise<void> }> {
  const client = await connectClient(url, era);
  const updates: string[] = [];
  client.setNotificationHandler('notifications/resources/updated', (n) => {
    updates.push(n.params.uri);
  });
  let subscription: { close(): Promise<void> } | undefined;
  if (era.era === '2026-07-28') subscription = await client.listen({ resourceSubscriptions: URIS });
  else for (const uri of URIS) await client.subscribeResource({ uri });
  return {
    client,
    updates,
    async close() {
      await subscription?.close();
      await client.close();
    },
  };
}

async function until(probe: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (probe()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`never happened: ${what}`);
}

describe.skipIf(skip !== undefined)(`change events across replicas and tenants${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let fleet: Fleet;
  beforeAll(async () => {
    fleet = await startFleet({ tenants: ['acme', 'acme', 'globex', 'globex'], balancer: false });
  }, 120_000);
  afterAll(() => fleet?.stop());

  it.each(ERAS)('delivers an update made through A to a subscriber on B, and none to the other tenant ($era)', async (era) => {
    const [a, b, c, d] = fleet.replicas;
    const onB = await listener(b!.url, era);
    const onC = await listener(c!.url, era);
    const writer = async (url: string, amount: number): Promise<void> => {
      const client = await connectClient(url, ERAS[1]);
      try {
        const r = await client.callTool({ name: 'refunds.create_draft', arguments: draftArgs(`ev-${randomUUID()}`, amount) });
        expect(r.isError, textOf(r)).toBeFalsy();
      } finally {
        await client.close();
      }
    };
    try {
      await writer(a!.url, 1); // acme changes T-1001
      await until(() => onB.updates.length > 0, 'B heard the update made through A');
      expect(onB.updates).toEqual(['support://tickets/T-1001']);
      await writer(d!.url, 2); // globex changes T-1002: C hears it through Redis, after anything A published
      await until(() => onC.updates.length > 0, 'C heard the update made through D');
      expect(onC.updates).toEqual(['support://tickets/T-1002']);
      await writer(a!.url, 3); // acme marker, published after D's
      await until(() => onB.updates.length > 1, 'B heard the marker');
      expect(onB.updates).toEqual(['support://tickets/T-1001', 'support://tickets/T-1003']);
    } finally {
      await onB.close();
      await onC.close();
    }
  });
});
