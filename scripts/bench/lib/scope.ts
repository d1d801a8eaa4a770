/** Undoes one thing a benchmark set up (stops a process, drops a database). */
export type Disposer = () => Promise<void> | void;

/**
 * What a benchmark started, in order, so that everything is stopped at the end even when it fails or is
 * interrupted: `close()` runs the disposers last-in first-out and keeps going past one that throws.
 */
export interface Scope {
  /** Registers a disposer; the returned function runs it now (once) and takes it off the list. */
  defer(fn: Disposer): () => Promise<void>;
  /** Runs every remaining disposer, newest first; resolves to the errors they threw. */
  close(): Promise<unknown[]>;
}

/** A new, empty scope. */
export function createScope(): Scope {
  const stack: { fn: Disposer; done?: Promise<void> }[] = [];
  const runOnce = (entry: { fn: Disposer; done?: Promise<void> }): Promise<void> => {
    entry.done ??= (async () => {
      const i = stack.indexOf(entry);
      if (i >= 0) stack.splice(i, 1);
      await entry.fn();
    })();
    return entry.done;
  };
  return {
    defer(fn) {
      const entry = { fn };
      stack.push(entry);
      return () => runOnce(entry);
    },
    async close() {
      const errors: unknown[] = [];
      while (stack.length > 0) {
        const entry = stack[stack.length - 1]!;
        await runOnce(entry).catch((err: unknown) => errors.push(err));
      }
      return errors;
    },
  };
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
