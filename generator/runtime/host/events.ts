/**
 * The SDK's `ServerEventBus` for `subscriptions/listen`, made fleet-wide and
 * tenant-aware. `createMcpHandler` has one bus for all its listen streams and
 * filters only by URI, so this bus adds the tenant: each request runs inside
 * {@link runAsTenant}, a listen stream is filed under the tenant of the
 * request that opened it, and an event published while serving a request
 * reaches that tenant's streams only. With a {@link SharedStore}, events also
 * travel to every other replica through the store's publish/subscribe.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { ServerEvent, ServerEventBus } from '@modelcontextprotocol/server';
import type { SharedStore } from '../store/types.js';

const scope = new AsyncLocalStorage<{ readonly tenant: string | undefined }>();

/**
 * Runs `fn` (serving one request) on behalf of `tenant`: listen streams and events inside it belong to that tenant.
 * Without a tenant, and outside any tenant's scope, `fn` runs as it is: no scope reads the same as a scope
 * without a tenant, and a process whose requests carry no tenant then never turns on the promise hooks an
 * `AsyncLocalStorage` costs every promise (on every call, a few per cent of its CPU and allocations).
 */
export function runAsTenant<T>(tenant: string | undefined, fn: () => T): T {
  if (tenant === undefined && scope.getStore() === undefined) return fn();
  return scope.run({ tenant }, fn);
}

/** The store channel that carries change events between replicas. */
export const EVENTS_CHANNEL = 'events';

type Listener = (event: ServerEvent) => void;

/**
 * What travels between replicas: the event, its tenant (or `all` for every tenant), and who sent it (so a
 * replica ignores its own).
 */
interface Envelope {
  readonly origin: string;
  readonly tenant: string | null;
  readonly all?: true;
  readonly event: ServerEvent;
}

/** A tenant-scoped bus, fleet-wide when a store is given. Call {@link FleetEventBus.start} before serving. */
export class FleetEventBus implements ServerEventBus {
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly origin = randomUUID();
  private unsubscribe: (() => Promise<void>) | undefined;

  constructor(
    private readonly store: SharedStore | undefined,
    private readonly onerror: (error: Error) => void,
  ) {}

  /** Subscribes to the other replicas' events (no-op without a store). */
  async start(): Promise<void> {
    if (!this.store || this.unsubscribe) return;
    this.unsubscribe = await this.store.subscribe(EVENTS_CHANNEL, (message) => this.receive(message));
  }

  /** Publishes `event` for the tenant of the request being served (none outside a request). */
  publish(event: ServerEvent): void {
    this.publishFor(scope.getStore()?.tenant, event);
  }

  /** Publishes `event` to `tenant`'s listen streams on every replica. */
  publishFor(tenant: string | undefined, event: ServerEvent): void {
    this.deliver(tenant ?? null, event);
    if (!this.store) return;
    const envelope: Envelope = { origin: this.origin, tenant: tenant ?? null, event };
    this.store.publish(EVENTS_CHANNEL, JSON.stringify(envelope)).catch((error: unknown) => {
      this.onerror(new Error(`change event not sent to other replicas: ${error instanceof Error ? error.message : String(error)}`));
    });
  }

  /**
   * Publishes `event` to the listen streams of every tenant on every replica: for changes made outside any
   * request (out-of-band code), where each stream's own gate decides whether its subscriber may see it.
   */
  publishToAll(event: ServerEvent): void {
    this.deliverAll(event);
    if (!this.store) return;
    const envelope: Envelope = { origin: this.origin, tenant: null, all: true, event };
    this.store.publish(EVENTS_CHANNEL, JSON.stringify(envelope)).catch((error: unknown) => {
      this.onerror(new Error(`change event not sent to other replicas: ${error instanceof Error ? error.message : String(error)}`));
    });
  }

  /** Files `listener` (one listen stream) under the tenant of the request that opened it. */
  subscribe(listener: Listener): () => void {
    const key = tenantKey(scope.getStore()?.tenant ?? null);
    let set = this.listeners.get(key);
    if (!set) {
      set = new Set();
      this.listeners.set(key, set);
    }
    set.add(listener);
    return () => {
      const current = this.listeners.get(key);
      if (!current?.delete(listener)) return;
      if (current.size === 0) this.listeners.delete(key);
    };
  }

  /** Stops listening to other replicas. */
  async close(): Promise<void> {
    const unsubscribe = this.unsubscribe;
    this.unsubscribe = undefined;
    await unsubscribe?.().catch(() => undefined);
  }

  private receive(message: string): void {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(message) as Envelope;
    } catch {
      this.onerror(new Error('ignored a malformed change event from the store'));
      return;
    }
    if (envelope.origin === this.origin || typeof envelope.event?.kind !== 'string') return;
    if (envelope.all === true) {
      this.deliverAll(envelope.event);
      return;
    }
    this.deliver(typeof envelope.tenant === 'string' ? envelope.tenant : null, envelope.event);
  }

  private deliverAll(event: ServerEvent): void {
    for (const key of [...this.listeners.keys()]) this.deliverTo(key, event);
  }

  private deliver(tenant: string | null, event: ServerEvent): void {
    this.deliverTo(tenantKey(tenant), event);
  }

  private deliverTo(key: string, event: ServerEvent): void {
    for (const listener of [...(this.listeners.get(key) ?? [])]) {
      try {
        listener(event);
      } catch (error) {
        this.onerror(error instanceof Error ? error : new Error(String(error)));
      }
    }
  }
}

/** Map key of a tenant; `null` (no tenant) cannot collide with any tenant's name. */
const tenantKey = (tenant: string | null): string => (tenant === null ? '-' : `t:${tenant}`);
