/**
 * Graceful shutdown of an HTTP host: once draining starts, new requests are
 * refused with 503 (a load balancer moves on to another replica) while calls
 * already running finish, up to a deadline. Long-lived streams (2026
 * `subscriptions/listen`, 2025 GET streams) are not calls: they are closed,
 * not waited for, and clients reconnect elsewhere.
 */

/** One request being served; `leave` when its response is over, `detach` when it turned out to be a stream. */
export interface Ticket {
  leave(): void;
  detach(): void;
}

/** Counts calls in flight and lets shutdown wait for them. */
export class Drain {
  private readonly active = new Set<object>();
  private waiters: (() => void)[] = [];
  private draining = false;

  /** True once {@link Drain.start} was called: refuse new work. */
  get isDraining(): boolean {
    return this.draining;
  }

  /** Calls in flight (for health output and tests). */
  get inFlight(): number {
    return this.active.size;
  }

  /** Records a request entering. */
  enter(): Ticket {
    const token = {};
    this.active.add(token);
    const leave = (): void => {
      if (!this.active.delete(token)) return;
      if (this.active.size === 0) for (const wake of this.waiters.splice(0)) wake();
    };
    return { leave, detach: leave };
  }

  /** Starts draining; resolves when no call is in flight or after `timeoutMs` (true when every call finished). */
  async start(timeoutMs: number): Promise<boolean> {
    this.draining = true;
    if (this.active.size === 0) return true;
    let timer: NodeJS.Timeout | undefined;
    const finished = await Promise.race([
      new Promise<boolean>((resolve) => this.waiters.push(() => resolve(true))),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      }),
    ]);
    clearTimeout(timer);
    return finished;
  }
}

/** What a draining host answers to a new request: 503 with `Connection: close`, so the balancer retries elsewhere. */
export function drainingResponse(): Response {
  return Response.json(
    { jsonrpc: '2.0', error: { code: -32000, message: 'Server is shutting down: retry on another replica' }, id: null },
    { status: 503, headers: { connection: 'close', 'retry-after': '1' } },
  );
}
