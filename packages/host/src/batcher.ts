/** One item waiting in a batch, and how to tell its deliverer the outcome. */
export interface Waiting<T> {
  readonly item: T;
  resolve(): void;
  reject(err: unknown): void;
}

export interface BatcherOptions<T> {
  /** Most items in one batch. */
  max: number;
  /**
   * How long the first item of a batch waits for more before the batch runs (0: only for what arrives in the same
   * turn of the event loop). Items that arrive while a batch runs form the next one, so under load batches grow
   * without any wait.
   */
  maxWaitMs: number;
  /**
   * Under load, the shortest time between the starts of two batches, unless `max` items are already waiting
   * (default 0: none). A batch that finds the previous one started longer ago than this runs without waiting, so
   * a lone item pays nothing; under load, batches are spaced this far apart and grow instead of multiplying. Each
   * batch has fixed costs (a transaction, its round trips, a commit), so this trades a bounded wait for CPU.
   */
  intervalMs?: number;
  /** Batches running at once (default 1: strictly one after the other). */
  concurrency?: number;
  /** Applies a batch and settles every item of it (a throw rejects those left unsettled). */
  run(batch: Waiting<T>[]): Promise<void>;
  /** Milliseconds from a monotonic clock (default `performance.now`). */
  now?: () => number;
}

/** How long a batch still waits for the interval since the previous batch started (see `intervalMs`). */
export function intervalLeft(sinceLastStartMs: number, intervalMs: number): number {
  if (intervalMs <= 0) return 0;
  return Math.min(intervalMs, Math.max(0, intervalMs - sinceLastStartMs));
}

/**
 * Gathers items that arrive one at a time into batches, up to `concurrency` batches running at a time (a group
 * commit): `add` resolves once the item's batch has been applied, or rejects when it could not be.
 */
export function createBatcher<T>(opts: BatcherOptions<T>): { add(item: T): Promise<void> } {
  const queue: Waiting<T>[] = [];
  const concurrency = opts.concurrency ?? 1;
  const intervalMs = opts.intervalMs ?? 0;
  const now = opts.now ?? (() => performance.now());
  let running = 0;
  let lastStart = Number.NEGATIVE_INFINITY;
  let timer: { kind: 'timeout'; handle: NodeJS.Timeout } | { kind: 'immediate'; handle: NodeJS.Immediate } | undefined;

  const cancelTimer = () => {
    if (timer === undefined) return;
    if (timer.kind === 'timeout') clearTimeout(timer.handle);
    else clearImmediate(timer.handle);
    timer = undefined;
  };

  const flush = () => {
    cancelTimer();
    running += 1;
    lastStart = now();
    const batch = queue.splice(0, opts.max);
    opts
      .run(batch)
      .catch((err: unknown) => {
        for (const w of batch) w.reject(err);
      })
      .finally(() => {
        running -= 1;
        schedule();
      });
  };

  const schedule = () => {
    if (running >= concurrency || queue.length === 0) return;
    if (queue.length >= opts.max) {
      flush();
      return;
    }
    if (timer !== undefined) return;
    const wait = Math.max(opts.maxWaitMs, intervalLeft(now() - lastStart, intervalMs));
    timer =
      wait > 0
        ? { kind: 'timeout', handle: setTimeout(flush, wait) }
        : { kind: 'immediate', handle: setImmediate(flush) };
  };

  return {
    add(item) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        schedule();
      });
    },
  };
}
