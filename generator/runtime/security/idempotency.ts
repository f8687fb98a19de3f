/**
 * Idempotency keys for tools declared `idempotency: required`. A key is scoped
 * to (tool, tenant, principal): another caller reusing a key neither replays
 * nor blocks someone else's result.
 */

/** What the store holds for one key. */
export type IdempotencyRecord =
  | { readonly state: 'pending'; readonly inputSha256: string; readonly expiresAt: number }
  | { readonly state: 'done'; readonly inputSha256: string; readonly expiresAt: number; readonly result: unknown };

/** Outcome of {@link IdempotencyStore.begin}. */
export type BeginOutcome =
  | { readonly kind: 'started' }
  | { readonly kind: 'existing'; readonly record: IdempotencyRecord };

/**
 * Storage for idempotency keys. `begin` must be atomic (put-if-absent): with
 * several replicas, back it with a shared store (e.g. Redis `SET key value NX PX ttl`,
 * or a unique-key insert in SQL) so two replicas never both start the same key.
 */
export interface IdempotencyStore {
  /** The live record of `key`, if any (expired records count as absent). */
  get(key: string): Promise<IdempotencyRecord | undefined> | IdempotencyRecord | undefined;
  /** Reserves `key` for `inputSha256` unless it exists (then returns the existing record). */
  begin(key: string, inputSha256: string, ttlMs: number): Promise<BeginOutcome> | BeginOutcome;
  /** Stores the first result of `key` (called once, after a successful handler run). */
  complete(key: string, inputSha256: string, result: unknown, ttlMs: number): Promise<void> | void;
  /** Drops a pending reservation after a failed run, so a retry may run the handler again. */
  release(key: string): Promise<void> | void;
}

/** Options for {@link memoryIdempotencyStore}. */
export interface MemoryIdempotencyOptions {
  /** Milliseconds since the epoch. Default `Date.now`. */
  clock?: () => number;
  /** Most keys kept; the oldest are dropped first. Default 10,000. */
  maxEntries?: number;
}

/** How long keys live unless the author says otherwise: 24 hours. */
export const DEFAULT_IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * The default store: a Map in this process with expiry. Correct for stdio and
 * a single HTTP process; several replicas need a shared {@link IdempotencyStore}.
 */
export function memoryIdempotencyStore(options: MemoryIdempotencyOptions = {}): IdempotencyStore {
  const clock = options.clock ?? Date.now;
  const max = options.maxEntries ?? 10_000;
  const records = new Map<string, IdempotencyRecord>();
  const live = (key: string): IdempotencyRecord | undefined => {
    const record = records.get(key);
    if (record && record.expiresAt <= clock()) {
      records.delete(key);
      return undefined;
    }
    return record;
  };
  return {
    get: live,
    begin(key, inputSha256, ttlMs) {
      const existing = live(key);
      if (existing) return { kind: 'existing', record: existing };
      if (records.size >= max) {
        // Maps iterate in insertion order: the first key is the oldest.
        const oldest = records.keys().next().value;
        if (oldest !== undefined) records.delete(oldest);
      }
      records.set(key, { state: 'pending', inputSha256, expiresAt: clock() + ttlMs });
      return { kind: 'started' };
    },
    complete(key, inputSha256, result, ttlMs) {
      records.set(key, { state: 'done', inputSha256, result, expiresAt: clock() + ttlMs });
    },
    release(key) {
      if (records.get(key)?.state === 'pending') records.delete(key);
    },
  };
}
