/**
 * Exactly once over Streamable HTTP, where every request gets a fresh server instance: the key of a call
 * still running answers "in progress" to a retry on another connection, and its first outcome is
 * replayed afterwards; the handler runs once.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { idempotencyStoreKey, memoryStore, startHttpServer, type HttpServerHandle } from '../../generator/runtime/index.js';
import { ERAS, control, createServer, latch, seen } from './fixture.js';

const text = (r: { content?: unknown }) => ((r.content as { text?: string }[] | undefined) ?? []).map((c) => c.text).join('\n');
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('idempotency over Streamable HTTP', () => {
  let server: HttpServerHandle;
  const store = memoryStore();
  beforeAll(async () => {
    server = await startHttpServer((ctx) => createServer({ era: ctx.era, store, stderr: { write: () => true } }), { port: 0, stderr: { write: () => true } });
  });
  afterAll(() => server.close());
  beforeEach(() => {
    seen.effects.length = 0;
    control.hold = undefined;
  });

  it.each(ERAS)('answers "in progress" to a retry from another connection while the first call runs ($era)', async ({ mode, era }) => {
    const open = async () => {
      const client = new Client({ name: 'http-idem', version: '1.0.0' }, { versionNegotiation: { mode } } as ConstructorParameters<typeof Client>[1]);
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      return client;
    };
    const a = await open();
    const b = await open();
    try {
      const hold = latch();
      control.hold = hold.promise;
      const key = `http-${era}`;
      const first = a.callTool({ name: 'charge', arguments: { amount: 7, idempotencyKey: key } });
      for (let i = 0; i < 10_000 && seen.effects.length === 0 && !(await probe()); i++) await settle();
      const retry = await b.callTool({ name: 'charge', arguments: { amount: 7, idempotencyKey: key } });
      expect(text(retry)).toMatch(/^In progress/);
      control.hold = undefined;
      hold.open();
      expect(text(await first)).toBe('charged 1');
      expect(text(await b.callTool({ name: 'charge', arguments: { amount: 7, idempotencyKey: key } }))).toBe('charged 1');
      expect(seen.effects).toHaveLength(1);
    } finally {
      await a.close();
      await b.close();
    }

    /** True once the first call holds its claim (a probe claim of the same key answers pending). */
    async function probe(): Promise<boolean> {
      const storeKey = idempotencyStoreKey('charge', { principal: 'local', scopes: [] }, `http-${era}`);
      const outcome = await store.claimIdempotency({ key: storeKey, owner: { principal: 'local' }, inputSha256: 'probe', leaseMs: 1, ttlMs: 1 });
      if (outcome.kind === 'claimed') await store.releaseIdempotency(storeKey, outcome.token);
      return outcome.kind === 'pending';
    }
  });
});
