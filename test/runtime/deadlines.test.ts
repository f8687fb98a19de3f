/**
 * Time budgets without a timer per call: every expiry runs at its own deadline (never early, never
 * missed), a cancelled one never runs, and one timer serves a budget however many calls it has.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deadline } from '../../generator/runtime/deadlines.js';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('deadline', () => {
  it('expires each call at its own deadline, and never one that was cancelled', () => {
    const fired: string[] = [];
    const a = deadline(100, () => fired.push('a'));
    vi.advanceTimersByTime(1);
    deadline(100, () => fired.push('a2'));
    vi.advanceTimersByTime(9);
    const b = deadline(100, () => fired.push('b'));
    vi.advanceTimersByTime(10);
    deadline(100, () => fired.push('c'));
    expect(b.cancel()).toBe(true);
    vi.advanceTimersByTime(79);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual(['a']);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual(['a', 'a2']);
    vi.advanceTimersByTime(18);
    expect(fired).toEqual(['a', 'a2']);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual(['a', 'a2', 'c']);
    expect(a.cancel()).toBe(false);
  });

  it('arms one timer per budget, not one per call', () => {
    const spy = vi.spyOn(globalThis, 'setTimeout');
    const calls = Array.from({ length: 500 }, () => deadline(250, () => undefined));
    expect(spy).toHaveBeenCalledTimes(1);
    for (const c of calls) c.cancel();
    spy.mockRestore();
  });

  it('keeps budgets apart and starts again after its queue emptied', () => {
    const fired: string[] = [];
    deadline(50, () => fired.push('short'));
    const long = deadline(300, () => fired.push('long'));
    vi.advanceTimersByTime(50);
    expect(fired).toEqual(['short']);
    long.cancel();
    vi.advanceTimersByTime(300);
    expect(fired).toEqual(['short']);
    deadline(50, () => fired.push('again'));
    vi.advanceTimersByTime(50);
    expect(fired).toEqual(['short', 'again']);
  });

  it('lets an expiry start another call of the same budget', () => {
    const fired: number[] = [];
    deadline(40, () => {
      fired.push(1);
      deadline(40, () => fired.push(2));
    });
    vi.advanceTimersByTime(40);
    expect(fired).toEqual([1]);
    vi.advanceTimersByTime(40);
    expect(fired).toEqual([1, 2]);
  });

  it('uses a plain timer for budgets that are not whole milliseconds', () => {
    const fired: string[] = [];
    deadline(10.5, () => fired.push('x'));
    vi.advanceTimersByTime(11);
    expect(fired).toEqual(['x']);
  });
});
