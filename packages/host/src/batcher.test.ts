import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBatcher, intervalLeft, type Waiting } from './batcher.js';

/** A batcher over numbers that records each batch and settles it at once. */
function recording(opts: { max?: number; maxWaitMs?: number; intervalMs?: number; concurrency?: number }) {
  const batches: number[][] = [];
  const batcher = createBatcher<number>({
    max: opts.max ?? 100,
    maxWaitMs: opts.maxWaitMs ?? 0,
    ...(opts.intervalMs === undefined ? {} : { intervalMs: opts.intervalMs }),
    ...(opts.concurrency === undefined ? {} : { concurrency: opts.concurrency }),
    now: () => Date.now(),
    run: async (batch: Waiting<number>[]) => {
      batches.push(batch.map((w) => w.item));
      for (const w of batch) w.resolve();
    },
  });
  return { batches, add: (n: number) => batcher.add(n) };
}

describe('intervalLeft', () => {
  it('is what remains of the interval, never more than it, and nothing without one', () => {
    expect(intervalLeft(0, 50)).toBe(50);
    expect(intervalLeft(20, 50)).toBe(30);
    expect(intervalLeft(80, 50)).toBe(0);
    expect(intervalLeft(Number.POSITIVE_INFINITY, 50)).toBe(0);
    // A clock that went backwards does not stretch the wait.
    expect(intervalLeft(-100, 50)).toBe(50);
    expect(intervalLeft(0, 0)).toBe(0);
  });
});

describe('createBatcher with intervalMs', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs an item after a quiet spell at once, and gathers the items of a busy spell into one batch', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'Date'] });
    const b = recording({ intervalMs: 50 });

    const first = b.add(1);
    await vi.advanceTimersByTimeAsync(0);
    await first;
    expect(b.batches).toEqual([[1]]);

    // Within the interval of the first batch: these wait for it, and go together.
    const busy = [2, 3, 4].map((n) => b.add(n));
    await vi.advanceTimersByTimeAsync(10);
    expect(b.batches).toEqual([[1]]);
    await vi.advanceTimersByTimeAsync(40);
    await Promise.all(busy);
    expect(b.batches).toEqual([[1], [2, 3, 4]]);

    // Long after: no wait again.
    await vi.advanceTimersByTimeAsync(500);
    const late = b.add(5);
    await vi.advanceTimersByTimeAsync(0);
    await late;
    expect(b.batches).toEqual([[1], [2, 3, 4], [5]]);
  });

  it('does not wait for the interval once a full batch is waiting', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'Date'] });
    const b = recording({ intervalMs: 1000, max: 3 });
    await Promise.all([b.add(1), vi.advanceTimersByTimeAsync(0)]);
    const full = [2, 3, 4].map((n) => b.add(n));
    await vi.advanceTimersByTimeAsync(1);
    await Promise.all(full);
    expect(b.batches).toEqual([[1], [2, 3, 4]]);
  });

  it('without an interval, runs what arrived in the same turn without a timer', async () => {
    const b = recording({});
    await Promise.all([b.add(1), b.add(2)]);
    await Promise.all([b.add(3)]);
    expect(b.batches).toEqual([[1, 2], [3]]);
  });
});
