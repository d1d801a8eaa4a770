import { intervalLeft } from '../batcher.js';
import type { Logger } from '../logger.js';

/** What the write queue needs of a queued item: an upper bound of its bytes in the batch message. */
export interface Sized {
  bytes: number;
}

/** Options of `createWriteQueue`. */
export interface WriteQueueOptions<W extends Sized> {
  /** Most items in one batch. */
  maxBatch: number;
  /** Most bytes in one batch (a lone item over the budget still goes, alone). */
  maxBatchBytes: number;
  /** Under load, the shortest time between two flushes, unless a full batch is waiting. */
  intervalMs: number;
  log: Logger;
  /** Runs one batch; it settles each item itself. */
  run: (batch: W[]) => Promise<void>;
  /** Settles the items of a batch whose `run` threw (a bug: `run` settles every item itself). */
  fail: (batch: W[], err: unknown) => void;
}

/**
 * The group-commit queue of a ledger recorder: items that arrive in the same turn of the event loop go out as one
 * batch (at most `maxBatch` items and `maxBatchBytes`); under load, items gather until `intervalMs` has passed
 * since the previous flush. Batches run concurrently.
 */
export function createWriteQueue<W extends Sized>(o: WriteQueueOptions<W>) {
  let queue: W[] = [];
  let scheduled = false;
  /** Set while a flush waits for the interval: a full batch clears it and flushes at once. */
  let intervalTimer: NodeJS.Timeout | undefined;
  /** When (performance.now()) the queue was last flushed; never: long ago. */
  let flushedAt = Number.NEGATIVE_INFINITY;

  function flush(): void {
    scheduled = false;
    clearTimeout(intervalTimer);
    intervalTimer = undefined;
    flushedAt = performance.now();
    while (queue.length > 0) {
      // As many as fit in one message, and at least one (a payload alone over the budget still goes).
      let n = 0;
      let bytes = 0;
      while (n < queue.length && n < o.maxBatch && (n === 0 || bytes + queue[n]!.bytes <= o.maxBatchBytes)) {
        bytes += queue[n]!.bytes;
        n += 1;
      }
      const batch = queue.slice(0, n);
      queue = queue.slice(n);
      void o.run(batch).catch((err: unknown) => {
        // run settles every write itself; this only guards against a bug leaving a caller without an answer.
        o.log.error({ err }, 'ledger batch failed');
        o.fail(batch, err);
      });
    }
  }

  return {
    /** Queues one item for the next batch. */
    enqueue(item: W): void {
      queue.push(item);
      if (intervalTimer && queue.length >= o.maxBatch) {
        flush();
        return;
      }
      if (!scheduled) {
        scheduled = true;
        const wait = intervalLeft(performance.now() - flushedAt, o.intervalMs);
        // Writes arriving in the same turn of the event loop (one read from the bus) share the batch; under load,
        // so do those arriving until the interval since the previous flush has passed.
        if (wait > 0) intervalTimer = setTimeout(flush, wait);
        else setImmediate(flush);
      }
    },
  };
}
