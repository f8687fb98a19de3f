/**
 * The default {@link SharedStore}: state in this process. Correct for stdio and
 * for one HTTP process; replicas behind a load balancer need a shared store.
 *
 * Capacity is counted per owner (tenant and principal): an owner at its limit
 * is refused new keys, nobody else's record is ever dropped to make room, and
 * a pending record is never dropped before its lease ends.
 */
import { randomUUID } from 'node:crypto';
import { StoreUnavailableError, type ClaimOutcome, type IdempotencyClaim, type SharedStore, type StoreOwner } from './types.js';

/** Options for {@link memoryStore}. */
export interface MemoryStoreOptions {
  /** Milliseconds since the epoch. Default `Date.now`. */
  clock?: () => number;
  /** Most live idempotency records one owner (tenant and principal) may hold. Default 10,000. */
  maxRecordsPerOwner?: number;
}

/** The default per-owner capacity. */
export const DEFAULT_RECORDS_PER_OWNER = 10_000;

type Entry =
  | { readonly state: 'pending'; readonly owner: string; readonly inputSha256: string; readonly token: string; leaseExpiresAt: number; readonly expiresAt: number }
  | { readonly state: 'completed'; readonly owner: string; readonly inputSha256: string; readonly result: unknown; readonly expiresAt: number };

/** How many writes pass between two sweeps of expired entries (amortised clean-up, no timer). */
const SWEEP_EVERY = 1024;

const ownerId = (owner: StoreOwner): string => JSON.stringify([owner.tenant ?? null, owner.principal]);

/** Creates an in-memory store. */
export function memoryStore(options: MemoryStoreOptions = {}): SharedStore {
  return new MemoryStore(options.clock ?? Date.now, options.maxRecordsPerOwner ?? DEFAULT_RECORDS_PER_OWNER);
}

class MemoryStore implements SharedStore {
  readonly name = 'memory';
  private readonly records = new Map<string, Entry>();
  private readonly byOwner = new Map<string, Set<string>>();
  private readonly consumed = new Map<string, number>();
  private readonly channels = new Map<string, Set<(message: string) => void>>();
  private writes = 0;
  private closed = false;

  constructor(
    private readonly clock: () => number,
    private readonly maxPerOwner: number,
  ) {}

  async claimIdempotency(claim: IdempotencyClaim): Promise<ClaimOutcome> {
    this.usable();
    const now = this.clock();
    const existing = this.live(claim.key, now);
    if (existing?.state === 'completed') return { kind: 'completed', inputSha256: existing.inputSha256, result: existing.result };
    if (existing?.state === 'pending' && existing.leaseExpiresAt > now) return { kind: 'pending', inputSha256: existing.inputSha256, leaseExpiresAt: existing.leaseExpiresAt };
    // A pending record whose lease ended belongs to a holder that is gone: the key may be claimed again.
    if (existing) this.drop(claim.key, existing);
    const owner = ownerId(claim.owner);
    if (!this.roomFor(owner, now)) return { kind: 'full' };
    const token = randomUUID();
    this.put(claim.key, { state: 'pending', owner, inputSha256: claim.inputSha256, token, leaseExpiresAt: now + claim.leaseMs, expiresAt: now + Math.max(claim.ttlMs, claim.leaseMs) });
    return { kind: 'claimed', token };
  }

  async renewIdempotencyLease(key: string, token: string, leaseMs: number): Promise<boolean> {
    this.usable();
    const entry = this.records.get(key);
    if (entry?.state !== 'pending' || entry.token !== token) return false;
    entry.leaseExpiresAt = this.clock() + leaseMs;
    return true;
  }

  async completeIdempotency(key: string, token: string, result: unknown, ttlMs: number): Promise<boolean> {
    this.usable();
    const entry = this.records.get(key);
    if (entry?.state !== 'pending' || entry.token !== token) return false;
    this.records.set(key, { state: 'completed', owner: entry.owner, inputSha256: entry.inputSha256, result, expiresAt: this.clock() + ttlMs });
    return true;
  }

  async releaseIdempotency(key: string, token: string): Promise<void> {
    this.usable();
    const entry = this.records.get(key);
    if (entry?.state === 'pending' && entry.token === token) this.drop(key, entry);
  }

  async consumeOnce(key: string, ttlMs: number): Promise<boolean> {
    this.usable();
    const now = this.clock();
    const until = this.consumed.get(key);
    if (until !== undefined && until > now) return false;
    this.consumed.set(key, now + ttlMs);
    this.tick(now);
    return true;
  }

  async publish(channel: string, message: string): Promise<void> {
    this.usable();
    for (const listener of [...(this.channels.get(channel) ?? [])]) {
      try {
        listener(message);
      } catch {
        // One failing subscriber must not keep the event from the others.
      }
    }
  }

  async subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>> {
    this.usable();
    let set = this.channels.get(channel);
    if (!set) this.channels.set(channel, (set = new Set()));
    // A wrapper per subscription, so the same function subscribed twice is two subscriptions.
    const own = (message: string): void => listener(message);
    set.add(own);
    return async () => {
      set.delete(own);
      if (set.size === 0 && this.channels.get(channel) === set) this.channels.delete(channel);
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.records.clear();
    this.byOwner.clear();
    this.consumed.clear();
    this.channels.clear();
  }

  private usable(): void {
    if (this.closed) throw new StoreUnavailableError('the memory store was closed');
  }

  /** The entry of `key` unless its record expired (then it is dropped). */
  private live(key: string, now: number): Entry | undefined {
    const entry = this.records.get(key);
    if (entry && entry.expiresAt <= now) {
      this.drop(key, entry);
      return undefined;
    }
    return entry;
  }

  /** True when `owner` may hold one more record; its own expired records are cleared first. */
  private roomFor(owner: string, now: number): boolean {
    const keys = this.byOwner.get(owner);
    if (!keys || keys.size < this.maxPerOwner) return true;
    for (const key of keys) {
      const entry = this.records.get(key);
      if (!entry || entry.expiresAt <= now || (entry.state === 'pending' && entry.leaseExpiresAt <= now)) this.drop(key, entry);
    }
    return keys.size < this.maxPerOwner;
  }

  private put(key: string, entry: Entry): void {
    this.records.set(key, entry);
    let keys = this.byOwner.get(entry.owner);
    if (!keys) this.byOwner.set(entry.owner, (keys = new Set()));
    keys.add(key);
    this.tick(this.clock());
  }

  private drop(key: string, entry: Entry | undefined): void {
    this.records.delete(key);
    const owner = entry?.owner;
    if (owner === undefined) return;
    const keys = this.byOwner.get(owner);
    keys?.delete(key);
    if (keys?.size === 0) this.byOwner.delete(owner);
  }

  /** Every {@link SWEEP_EVERY} writes, clears what has expired, so memory follows live state only. */
  private tick(now: number): void {
    if (++this.writes % SWEEP_EVERY !== 0) return;
    for (const [key, entry] of this.records) if (entry.expiresAt <= now) this.drop(key, entry);
    for (const [key, until] of this.consumed) if (until <= now) this.consumed.delete(key);
  }
}
