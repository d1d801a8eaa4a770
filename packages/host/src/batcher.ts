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
  /** Batches running at once (default 1: strictly one after the other). */
  concurrency?: number;
  /** Applies a batch and settles every item of it (a throw rejects those left unsettled). */
  run(batch: Waiting<T>[]): Promise<void>;
}

/**
 * Gathers items that arrive one at a time into batches, up to `concurrency` batches running at a time (a group
 * commit): `add` resolves once the item's batch has been applied, or rejects when it could not be.
 */
export function createBatcher<T>(opts: BatcherOptions<T>): { add(item: T): Promise<void> } {
  const queue: Waiting<T>[] = [];
  const concurrency = opts.concurrency ?? 1;
  let running = 0;
  let timer: NodeJS.Timeout | NodeJS.Immediate | undefined;

  const cancelTimer = () => {
    if (timer === undefined) return;
    if (opts.maxWaitMs > 0) clearTimeout(timer as NodeJS.Timeout);
    else clearImmediate(timer as NodeJS.Immediate);
    timer = undefined;
  };

  const flush = () => {
    cancelTimer();
    running += 1;
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
    timer = opts.maxWaitMs > 0 ? setTimeout(flush, opts.maxWaitMs) : setImmediate(flush);
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
