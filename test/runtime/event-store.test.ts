/** The replay history of a 2025-era HTTP session: bounded by events and bytes, exact within the bound. */
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { BoundedEventStore } from '../../generator/runtime/host/eventStore.js';

const note = (n: number, pad = 0): JSONRPCMessage => ({ jsonrpc: '2.0', method: 'notifications/message', params: { n, pad: 'x'.repeat(pad) } });

async function replay(store: BoundedEventStore, after: string): Promise<{ stream: string; got: number[] }> {
  const got: number[] = [];
  const stream = await store.replayEventsAfter(after, {
    send: async (_id, message) => {
      got.push((message as unknown as { params: { n: number } }).params.n);
    },
  });
  return { stream, got };
}

describe('bounded event store', () => {
  it('replays every held event after Last-Event-ID, in order, on its own stream only', async () => {
    const store = new BoundedEventStore();
    const ids: string[] = [];
    for (let n = 0; n < 10; n++) ids.push(await store.storeEvent(n % 2 === 0 ? 'even' : 'odd', note(n)));
    expect(await replay(store, ids[2]!)).toEqual({ stream: 'even', got: [4, 6, 8] });
    expect(await replay(store, ids[3]!)).toEqual({ stream: 'odd', got: [5, 7, 9] });
    expect(await store.getStreamIdForEventId(ids[7]!)).toBe('odd');
  });

  it('holds at most maxBytes of history however busy the session is, evicting the oldest', async () => {
    const store = new BoundedEventStore(1000, 20_000);
    for (let n = 0; n < 5000; n++) await store.storeEvent('s', note(n, 1000));
    expect(store.bytes).toBeLessThanOrEqual(20_000);
    expect(store.size).toBeGreaterThan(10);
    const newest = 4999;
    const oldestHeld = newest - store.size + 1;
    // Resuming from the event just before the oldest held one replays everything held.
    const { got } = await replay(store, `s_${oldestHeld - 1}`);
    expect(got).toEqual(Array.from({ length: store.size }, (_, i) => oldestHeld + i));
  });

  it('holds at most maxEvents', async () => {
    const store = new BoundedEventStore(50, 1 << 30);
    for (let n = 0; n < 500; n++) await store.storeEvent('s', note(n));
    expect(store.size).toBe(50);
    expect((await replay(store, 's_449')).got).toEqual(Array.from({ length: 50 }, (_, i) => 450 + i));
  });

  it('still answers the stream of an evicted id (stream ids may contain underscores), and nothing for a foreign id', async () => {
    const store = new BoundedEventStore(3, 1 << 30);
    for (let n = 0; n < 10; n++) await store.storeEvent('stream_a', note(n));
    expect(await store.getStreamIdForEventId('stream_a_0')).toBe('stream_a');
    expect(await replay(store, 'stream_a_0')).toEqual({ stream: 'stream_a', got: [7, 8, 9] });
    expect(await replay(store, 'not-an-event')).toEqual({ stream: '', got: [] });
  });

  it('keeps the newest event even when it alone is over the byte bound', async () => {
    const store = new BoundedEventStore(10, 100);
    await store.storeEvent('s', note(0));
    const big = await store.storeEvent('s', note(1, 500));
    expect(store.size).toBe(1);
    expect(await store.getStreamIdForEventId(big)).toBe('s');
  });
});
