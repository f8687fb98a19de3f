/**
 * The handlers' own state store (`ctx.state`) and the effect records the contract suites read. A handler
 * that keeps its domain state here makes every change observable: each write reaches `ServerOptions.onEffect`
 * with the primitive that made it, so a resource read or a prompt get that changes state (a hidden side
 * effect) is seen by whoever watches, and a scenario's final state is the store's content.
 */
import type { PrimitiveRef } from './context.js';

/** A small key-value store for handler state; values are JSON-like and copied in and out. */
export interface StateStore {
  get<T = unknown>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown): Promise<void>;
  /** True when the key existed. */
  delete(key: string): Promise<boolean>;
  /** Every entry, keys sorted (for snapshots and evidence). */
  entries(): Promise<[string, unknown][]>;
}

/** One observed change: a state write, or an announcement that a resource changed. */
export interface Effect {
  /** The primitive whose handler made it. */
  readonly primitive: PrimitiveRef;
  /** `set` / `delete` on `ctx.state`, or `resource-updated` through `ctx.notifyResourceUpdated`. */
  readonly op: 'set' | 'delete' | 'resource-updated';
  /** The state key, or the URI announced. */
  readonly target: string;
}

/** An in-memory {@link StateStore}; `seed` entries are its starting content. */
export function memoryState(seed: Readonly<Record<string, unknown>> = {}): StateStore {
  const data = new Map<string, unknown>(Object.entries(seed).map(([k, v]) => [k, structuredClone(v)]));
  return {
    get: async <T>(key: string) => (data.has(key) ? (structuredClone(data.get(key)) as T) : undefined),
    async set(key, value) {
      data.set(key, structuredClone(value));
    },
    delete: async (key) => data.delete(key),
    entries: async () => [...data.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => [k, structuredClone(v)]),
  };
}

/** The process-wide default, shared by every instance (HTTP builds one per request). */
export const processState = memoryState();

/** `store` as one primitive's handler sees it: every write is reported to `onEffect` first. */
export function observedState(store: StateStore, primitive: PrimitiveRef, onEffect: ((effect: Effect) => void) | undefined): StateStore {
  if (!onEffect) return store;
  const report = (op: Effect['op'], target: string) => {
    try {
      onEffect({ primitive, op, target });
    } catch {
      // An observer's failure must not change what the handler does.
    }
  };
  return {
    get: (key) => store.get(key),
    set: (key, value) => (report('set', key), store.set(key, value)),
    delete: (key) => (report('delete', key), store.delete(key)),
    entries: () => store.entries(),
  };
}
