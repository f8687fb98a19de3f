/**
 * The state a generated server must keep consistent, behind one interface, so
 * one process (the in-memory default) and a fleet of replicas (a shared store
 * such as Redis) run the same gates with the same guarantees.
 *
 * Every method is atomic with respect to every other caller of the same store,
 * in this process or in any other. Keys passed in are already namespaced by the
 * runtime (server, tenant, principal, tool); a store adds only its own prefix.
 */

/** Who owns a record: capacity is counted per owner, so one caller's flood never evicts another's keys. */
export interface StoreOwner {
  readonly tenant?: string;
  readonly principal: string;
}

/** A request to claim an idempotency key before running a handler. */
export interface IdempotencyClaim {
  /** Fully namespaced key (tenant, principal, tool and the caller's key). */
  readonly key: string;
  readonly owner: StoreOwner;
  /** sha256 of the canonical JSON of the input (without control arguments). */
  readonly inputSha256: string;
  /** How long the claim is held while the handler runs; a holder that dies frees it when the lease ends. */
  readonly leaseMs: number;
  /** How long the record (pending or completed) is kept. */
  readonly ttlMs: number;
}

/** Outcome of {@link SharedStore.claimIdempotency}. */
export type ClaimOutcome =
  /** The caller holds the lease and must run the handler, then `completeIdempotency` or `releaseIdempotency`. */
  | { readonly kind: 'claimed'; readonly token: string }
  /** Another call holds a live lease on this key (with this or another input). */
  | { readonly kind: 'pending'; readonly inputSha256: string; readonly leaseExpiresAt: number }
  /** The key has a stored outcome: replay it when the input matches, else answer a conflict. */
  | { readonly kind: 'completed'; readonly inputSha256: string; readonly result: unknown }
  /** The owner holds as many live records as the store allows: refuse this new key (nobody else's is evicted). */
  | { readonly kind: 'full' };

/** The one interface for everything replicas of a server must share. */
export interface SharedStore {
  /** `memory`, `redis`, or a custom store's name (shown in health output and logs). */
  readonly name: string;
  /**
   * Claims `key` atomically: absent or lease expired → `claimed` (a fresh token);
   * a live lease → `pending`; a stored outcome → `completed`. Never evicts a pending record.
   */
  claimIdempotency(claim: IdempotencyClaim): Promise<ClaimOutcome>;
  /** Extends a held lease; false when `token` no longer holds it. */
  renewIdempotencyLease(key: string, token: string, leaseMs: number): Promise<boolean>;
  /** Stores the outcome of the run that holds `token`; false when the token lost the lease (the outcome is not stored). */
  completeIdempotency(key: string, token: string, result: unknown, ttlMs: number): Promise<boolean>;
  /** Drops the claim held by `token` (the run failed before any effect), so a retry may run again. */
  releaseIdempotency(key: string, token: string): Promise<void>;
  /**
   * Single use across the fleet: true the first time `key` is consumed within `ttlMs`, false every
   * time after. Approvals, confirmations and receipts are consumed through this.
   */
  consumeOnce(key: string, ttlMs: number): Promise<boolean>;
  /** Publishes a change event (resource updated, list changed) to every subscriber of `channel` in the fleet. */
  publish(channel: string, message: string): Promise<void>;
  /** Subscribes to `channel`; the returned function unsubscribes. */
  subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>>;
  /** Optional liveness probe (health endpoints): resolves when the store answers, rejects with {@link StoreUnavailableError} otherwise. */
  ping?(): Promise<void>;
  /** Releases connections and timers; the store is unusable afterwards. */
  close(): Promise<void>;
}

/** Raised by a store that cannot answer (unreachable, timed out): gated calls refuse, never run unguarded. */
export class StoreUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreUnavailableError';
  }
}
