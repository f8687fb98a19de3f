/**
 * The replay history of one 2025-11-25 HTTP session, so a client that reconnects with `Last-Event-ID`
 * gets what it missed. Bounded twice — by events and by bytes — so a busy session (large tool results,
 * many notifications) holds at most `maxBytes` of history: the oldest events are evicted first.
 *
 * Resumability within the bound is exact: every event still held after `Last-Event-ID` is replayed, in
 * order, on its own stream. An event id encodes its stream, so a client that resumes from an evicted id
 * still gets the rest of its stream that is held; what was evicted before it reconnected is gone (the
 * specification lets a server bound what it replays).
 *
 * An event is held as its JSON text, not as the message: the history of a busy session then is a few
 * hundred flat strings rather than the object graphs of its results, which the garbage collector would
 * otherwise trace on every full collection for as long as they are held; the text is also what the
 * byte bound measures. A replay (rare) parses it back.
 */
import type { EventStore, JSONRPCMessage } from '@modelcontextprotocol/server';

/** Default bounds of {@link BoundedEventStore}. */
export const DEFAULT_EVENT_STORE_LIMITS = { maxEvents: 200, maxBytes: 256 * 1024 } as const;

interface StoredEvent {
  readonly id: string;
  readonly stream: string;
  readonly seq: number;
  readonly json: string;
  readonly bytes: number;
}

/** An in-memory {@link EventStore} with an event count and byte bound. */
export class BoundedEventStore implements EventStore {
  private readonly events: StoredEvent[] = [];
  private readonly byId = new Map<string, StoredEvent>();
  private head = 0; // index of the oldest held event in `events`
  private next = 0;
  private held = 0;

  constructor(
    private readonly maxEvents: number = DEFAULT_EVENT_STORE_LIMITS.maxEvents,
    private readonly maxBytes: number = DEFAULT_EVENT_STORE_LIMITS.maxBytes,
  ) {}

  /** Bytes of history held now (JSON text of the stored messages). */
  get bytes(): number {
    return this.held;
  }

  /** Events held now. */
  get size(): number {
    return this.events.length - this.head;
  }

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const seq = this.next++;
    const id = `${streamId}_${seq}`;
    const json = JSON.stringify(message);
    const event: StoredEvent = { id, stream: streamId, seq, json, bytes: Buffer.byteLength(json) };
    this.events.push(event);
    this.byId.set(id, event);
    this.held += event.bytes;
    // Evict oldest first; the newest event stays even when it alone is over the byte bound.
    while (this.size > 1 && (this.size > this.maxEvents || this.held > this.maxBytes)) this.evictOldest();
    if (this.head > 1024 && this.head * 2 > this.events.length) {
      this.events.splice(0, this.head);
      this.head = 0;
    }
    return id;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.byId.get(eventId)?.stream ?? streamOf(eventId);
  }

  async replayEventsAfter(lastEventId: string, { send }: { send: (id: string, message: JSONRPCMessage) => Promise<void> }): Promise<string> {
    const stream = this.byId.get(lastEventId)?.stream ?? streamOf(lastEventId);
    const after = seqOf(lastEventId);
    if (stream === undefined || after === undefined) return '';
    for (let i = this.head; i < this.events.length; i++) {
      const e = this.events[i]!;
      if (e.stream === stream && e.seq > after) await send(e.id, JSON.parse(e.json) as JSONRPCMessage);
    }
    return stream;
  }

  private evictOldest(): void {
    const oldest = this.events[this.head++]!;
    this.byId.delete(oldest.id);
    this.held -= oldest.bytes;
  }
}

/** `stream_seq` → `stream` (stream ids may themselves contain `_`). */
function streamOf(eventId: string): string | undefined {
  const at = eventId.lastIndexOf('_');
  return at > 0 && seqOf(eventId) !== undefined ? eventId.slice(0, at) : undefined;
}

function seqOf(eventId: string): number | undefined {
  const tail = eventId.slice(eventId.lastIndexOf('_') + 1);
  return /^\d+$/.test(tail) ? Number(tail) : undefined;
}
