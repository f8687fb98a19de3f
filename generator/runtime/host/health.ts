/**
 * The health endpoint load balancers poll (`GET /healthz` by default). It
 * answers 200 while the replica serves and 503 once it drains, so traffic
 * moves away before it stops. A shared store that does not answer is reported
 * in the body but does not fail the check: read tools keep working without
 * it, gated tools refuse on their own, and every replica shares the store, so
 * failing them all at once would take reads down too.
 */
import type { SharedStore } from '../store/types.js';

/** What {@link healthResponse} reports on. */
export interface HealthState {
  readonly replica: string;
  readonly draining: boolean;
  readonly inFlight: number;
  readonly store?: SharedStore;
}

/** How long the store gets to answer a health probe. */
const STORE_PROBE_MS = 500;

async function storeStatus(store: SharedStore | undefined): Promise<string> {
  if (!store) return 'memory';
  if (!store.ping) return store.name;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([store.ping(), new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), STORE_PROBE_MS)))]);
    return `${store.name}: ok`;
  } catch {
    return `${store.name}: unavailable`;
  } finally {
    clearTimeout(timer);
  }
}

/** The health document: `{ status, replica, inFlight, store }`, never cached. */
export async function healthResponse(state: HealthState): Promise<Response> {
  const body = { status: state.draining ? 'draining' : 'ok', replica: state.replica, inFlight: state.inFlight, store: await storeStatus(state.store) };
  return Response.json(body, { status: state.draining ? 503 : 200, headers: { 'cache-control': 'no-store' } });
}
