/**
 * Time budgets of calls without a timer per call. Every call of a tool has the same budget, so the
 * deadlines of one budget come in the order the calls started: each budget keeps its calls in a queue
 * and one timer, armed for the oldest call still running. A call that ends leaves the queue when it
 * reaches the front; the timer, when it fires, ends the calls whose time is up and is armed again for
 * the oldest left. A call thus never fires late, a busy server sets about one timer per budget period
 * instead of one per call, and a finished call costs no `clearTimeout`.
 */

/** One call's place in its budget's queue. */
export interface Deadline {
  /** The call ended in time: its expiry will not run. False when it had expired already. */
  cancel(): boolean;
}

interface Entry extends Deadline {
  readonly at: number;
  readonly expire: () => void;
  done: boolean;
}

/** Calls of one budget, oldest first. */
class Budget {
  private queue: (Entry | undefined)[] = [];
  private head = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly ms: number) {}

  add(expire: () => void): Deadline {
    const entry: Entry = {
      at: performance.now() + this.ms,
      expire,
      done: false,
      cancel: () => {
        if (entry.done) return false;
        entry.done = true;
        this.dropEnded();
        return true;
      },
    };
    this.queue.push(entry);
    if (this.timer === undefined) this.arm(entry.at);
    return entry;
  }

  /** Leaves the ended calls at the front of the queue (the rest leave when they reach it). */
  private dropEnded(): void {
    const q = this.queue;
    while (this.head < q.length && q[this.head]!.done) q[this.head++] = undefined;
    if (this.head === q.length) {
      this.queue = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > q.length) {
      this.queue = q.slice(this.head);
      this.head = 0;
    }
  }

  private arm(at: number): void {
    this.timer = setTimeout(() => this.fire(), Math.max(0, Math.ceil(at - performance.now())));
    this.timer.unref();
  }

  private fire(): void {
    this.timer = undefined;
    const now = performance.now();
    const due: Entry[] = [];
    const q = this.queue;
    while (this.head < q.length) {
      const entry = q[this.head]!;
      if (!entry.done) {
        if (entry.at > now) break;
        entry.done = true;
        due.push(entry);
      }
      q[this.head++] = undefined;
    }
    this.dropEnded();
    if (this.head < this.queue.length) this.arm(this.queue[this.head]!.at);
    // Expiries run last: one may start or end other calls of this budget.
    for (const entry of due) entry.expire();
  }
}

const budgets = new Map<number, Budget>();

/**
 * Runs `expire` once `ms` milliseconds have passed, unless the returned deadline is cancelled first.
 * Budgets that are not whole positive numbers of milliseconds below 2^31 use a plain timer.
 */
export function deadline(ms: number, expire: () => void): Deadline {
  if (!Number.isInteger(ms) || ms < 1 || ms >= 2 ** 31) return plainTimer(ms, expire);
  let budget = budgets.get(ms);
  if (budget === undefined) {
    budget = new Budget(ms);
    budgets.set(ms, budget);
  }
  return budget.add(expire);
}

function plainTimer(ms: number, expire: () => void): Deadline {
  let done = false;
  const timer = setTimeout(() => {
    done = true;
    expire();
  }, ms);
  timer.unref();
  return {
    cancel: () => {
      if (done) return false;
      done = true;
      clearTimeout(timer);
      return true;
    },
  };
}
