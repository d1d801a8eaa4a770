import { type IntervalOptions, intervalLeft } from '../../domain/block-interval.js';

export interface PacerOptions extends IntervalOptions {
  /** How long the appender waits after a wake-up for more transactions to share the block. */
  batchDelayMs: number;
}

/**
 * When the appender assembles its next block: once there is news (a transaction queued here, or one added to the
 * table), after the batching delay if it was idle, and under load no sooner than the block interval after the
 * previous block (see `intervalLeft`), unless a full block is queued.
 */
export function createPacer(deps: {
  options: PacerOptions;
  /** Longest idle wait, in case a wake-up was missed. */
  pollMs: number;
  /** Transactions queued in this instance now. */
  queued: () => number;
  now?: () => number;
}) {
  const { options, pollMs, queued } = deps;
  const now = deps.now ?? (() => performance.now());
  /** There may be work the appender has not looked at: it starts out looking. */
  let signalled = true;
  let stopping = false;
  /** Ends the idle wait early. */
  let wakeUp: (() => void) | undefined;
  /** Ends the block-interval wait early: a full block is queued, or the appender stops. */
  let endPause: (() => void) | undefined;
  /** When (now()) the previous block was assembled; none yet: long ago. */
  let assembledAt = Number.NEGATIVE_INFINITY;
  /** Transactions in that block. */
  let assembledSize = 0;

  /** Waits `ms`, or less when the function handed to `onEnd` is called; hands over undefined once over. */
  const wait = (ms: number, onEnd: (end: (() => void) | undefined) => void) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      onEnd(() => {
        clearTimeout(timer);
        resolve();
      });
    }).finally(() => onEnd(undefined));

  async function waitForWork(): Promise<void> {
    if (signalled || stopping) return;
    await wait(pollMs, (end) => {
      wakeUp = end;
    });
  }

  async function pauseForInterval(): Promise<void> {
    const next = { previousSize: assembledSize, sinceAssembledMs: now() - assembledAt, queued: queued() };
    const left = intervalLeft(next, options);
    if (left <= 0 || stopping) return;
    await wait(left, (end) => {
      endPause = end;
    });
  }

  return {
    /** There is news: ends an idle wait. */
    signal(): void {
      signalled = true;
      wakeUp?.();
    },

    /** Whether there was news since the last assembly. */
    hasNews(): boolean {
      return signalled;
    },

    /** A full block is queued: it goes without waiting for the rest of the interval. */
    queueFull(): void {
      endPause?.();
    },

    /**
     * Waits until the next block may be assembled. The batching delay applies after an idle wait only: under load
     * the queue fills while a block is mined. Then, unless this is a lone submitter, the block interval since the
     * previous block. Returns early once stopped.
     */
    async waitForBlock(): Promise<void> {
      const idle = !signalled;
      await waitForWork();
      if (stopping) return;
      if (idle && options.batchDelayMs > 0) await new Promise((r) => setTimeout(r, options.batchDelayMs));
      await pauseForInterval();
    },

    /**
     * The appender took `size` transactions for its next block (none: nothing to do); `more` says whether others
     * are left over. A transaction accepted while the table was read is in this block: only what is left over is
     * news (else the next block would count as one under load, and wait for the interval).
     */
    took(size: number, more: boolean): void {
      signalled = more;
      if (size === 0) return;
      assembledAt = now();
      assembledSize = size;
    },

    /** Ends every wait at once; later waits return at once. */
    stop(): void {
      stopping = true;
      wakeUp?.();
      endPause?.();
    },
  };
}

export type Pacer = ReturnType<typeof createPacer>;
