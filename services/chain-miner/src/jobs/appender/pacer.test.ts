import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPacer } from './pacer.js';

const options = { batchDelayMs: 5, blockIntervalMs: 100, maxBlockTx: 10 };

/** A pacer on fake timers, with the queue length the test sets. */
function setUp() {
  const state = { queued: 0 };
  const pacer = createPacer({ options, pollMs: 500, queued: () => state.queued, now: () => Date.now() });
  return { pacer, state };
}

/** Starts a wait and reports whether it has ended. */
function track(wait: Promise<void>) {
  const status = { done: false };
  void wait.then(() => {
    status.done = true;
  });
  return status;
}

describe('pacer', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('lets the first block go at once', async () => {
    const { pacer } = setUp();
    const wait = track(pacer.waitForBlock());
    await vi.advanceTimersByTimeAsync(0);
    expect(wait.done).toBe(true);
  });

  it('waits idle for news, then the batching delay; a lone submitter does not wait for the interval', async () => {
    const { pacer, state } = setUp();
    pacer.took(1, false);
    expect(pacer.hasNews()).toBe(false);
    const wait = track(pacer.waitForBlock());
    await vi.advanceTimersByTimeAsync(50);
    expect(wait.done).toBe(false);
    state.queued = 1;
    pacer.signal();
    await vi.advanceTimersByTimeAsync(4);
    expect(wait.done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(wait.done).toBe(true);
  });

  it('ends an idle wait after the poll interval, in case a wake-up was missed', async () => {
    const { pacer } = setUp();
    pacer.took(1, false);
    const wait = track(pacer.waitForBlock());
    await vi.advanceTimersByTimeAsync(499);
    expect(wait.done).toBe(false);
    await vi.advanceTimersByTimeAsync(1 + options.batchDelayMs);
    expect(wait.done).toBe(true);
  });

  it('under load, assembles no sooner than the block interval after the previous block', async () => {
    const { pacer, state } = setUp();
    pacer.took(5, true);
    state.queued = 3;
    await vi.advanceTimersByTimeAsync(30);
    const wait = track(pacer.waitForBlock());
    await vi.advanceTimersByTimeAsync(69);
    expect(wait.done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(wait.done).toBe(true);
  });

  it('lets a full block go without waiting for the rest of the interval', async () => {
    const { pacer, state } = setUp();
    pacer.took(5, true);
    state.queued = 3;
    const wait = track(pacer.waitForBlock());
    await vi.advanceTimersByTimeAsync(10);
    expect(wait.done).toBe(false);
    state.queued = options.maxBlockTx;
    pacer.queueFull();
    await vi.advanceTimersByTimeAsync(0);
    expect(wait.done).toBe(true);
  });

  it('ends every wait once stopped', async () => {
    const { pacer } = setUp();
    pacer.took(1, false);
    const idle = track(pacer.waitForBlock());
    pacer.stop();
    await vi.advanceTimersByTimeAsync(0);
    expect(idle.done).toBe(true);

    const loaded = setUp();
    loaded.pacer.took(5, true);
    loaded.state.queued = 3;
    const pause = track(loaded.pacer.waitForBlock());
    await vi.advanceTimersByTimeAsync(10);
    loaded.pacer.stop();
    await vi.advanceTimersByTimeAsync(0);
    expect(pause.done).toBe(true);
  });
});
