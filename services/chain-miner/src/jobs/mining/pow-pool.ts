import { Worker } from 'node:worker_threads';
import type { Logger } from '@rootline/host';

/** How a search ended: a nonce, stopped by `abort()` or a newer search, or the whole range without a hit. */
export type SearchResult =
  | { status: 'found'; nonce: number; hash: string }
  | { status: 'aborted' }
  | { status: 'exhausted' };

/** Proof-of-work threads: the search runs off the event loop, so the service keeps answering while it mines. */
export interface PowPool {
  readonly threads: number;
  /**
   * Searches nonces in [start, end) for SHA-256(prefix + nonce) with `difficulty` leading zero bits, the range
   * split among the threads. A new search (or `abort()`) ends the previous one, which resolves `aborted`.
   */
  search(prefix: string, difficulty: number, start: number, end: number): Promise<SearchResult>;
  /** Stops the running search within about a millisecond. */
  abort(): void;
  /** Hashes computed since the pool started. */
  hashes(): number;
  /** Threads running now: `threads` while mining and for `idleMs` after, 0 when idle longer (or closed). */
  live(): number;
  close(): Promise<void>;
}

const WORKER_URL = new URL('./pow-worker.mjs', import.meta.url);

interface Running {
  generation: number;
  remaining: number;
  exhausted: boolean;
  resolve: (r: SearchResult) => void;
}

interface WorkerMessage {
  generation: number;
  status: 'found' | 'aborted' | 'exhausted';
  nonce?: number;
  hash?: string;
}

/**
 * `threads` proof-of-work worker threads (plain JavaScript: no loader needed in any runtime), each at the given
 * nice value (0 = normal priority, 19 = lowest). They start with the first search and stop after `idleMs` without
 * one: each thread is a V8 isolate of some 10 MiB that an idle miner need not hold, and starting them again costs
 * the next block a few tens of milliseconds.
 */
export function createPowPool(threads: number, log?: Logger, nice = 0, idleMs = 60_000): PowPool {
  // Slot 0: the generation of the search the workers should be running; a worker stops when it changes.
  const control = new Int32Array(new SharedArrayBuffer(4));
  const counters = new BigInt64Array(new SharedArrayBuffer(8 * threads));
  let generation = 0;
  let running: Running | undefined;
  let closed = false;
  let idleTimer: NodeJS.Timeout | undefined;

  const settle = (result: SearchResult) => {
    const r = running;
    running = undefined;
    r?.resolve(result);
    releaseWhenIdle();
  };
  /** From now, the threads stop after `idleMs` unless a search comes first. */
  const releaseWhenIdle = () => {
    if (closed || workers.length === 0) return;
    clearTimeout(idleTimer);
    idleTimer = setTimeout(release, idleMs);
    idleTimer.unref();
  };

  /** Moves every worker off its current search. */
  const bump = () => {
    generation = (generation + 1) | 0;
    Atomics.store(control, 0, generation);
  };

  const onMessage = (msg: WorkerMessage) => {
    if (!running || msg.generation !== running.generation) return;
    if (msg.status === 'found') {
      bump();
      settle({ status: 'found', nonce: msg.nonce!, hash: msg.hash! });
      return;
    }
    if (msg.status === 'exhausted') running.exhausted = true;
    running.remaining -= 1;
    if (running.remaining === 0) settle(running.exhausted ? { status: 'exhausted' } : { status: 'aborted' });
  };

  let workers: Worker[] = [];
  const spawn = (slot: number): Worker => {
    // No inherited execArgv: the worker is plain JavaScript and must not pay for the parent's loaders.
    const w = new Worker(WORKER_URL, { workerData: { control, counters, slot, nice }, execArgv: [] });
    // A mining thread alone must not keep the process alive; the service closes the pool on stop.
    w.unref();
    w.on('message', onMessage);
    w.on('error', (err) => {
      log?.error({ err, slot }, 'proof-of-work thread failed; restarting it');
      // Its share of the running search is lost: count it as searched so the search still ends.
      if (running) onMessage({ generation: running.generation, status: 'exhausted' });
      if (!closed && workers[slot] === w) workers[slot] = spawn(slot);
    });
    return w;
  };
  const ensureWorkers = () => {
    clearTimeout(idleTimer);
    if (workers.length === 0) workers = Array.from({ length: threads }, (_, slot) => spawn(slot));
  };
  /** Stops the threads of an idle pool; the next search starts them again. */
  const release = () => {
    if (running || workers.length === 0) return;
    const stopping = workers;
    workers = [];
    for (const w of stopping) {
      w.terminate().catch((err: unknown) => log?.warn({ err }, 'an idle proof-of-work thread did not stop'));
    }
  };

  return {
    threads,
    search(prefix, difficulty, start, end) {
      if (closed) return Promise.resolve({ status: 'aborted' });
      bump();
      settle({ status: 'aborted' });
      ensureWorkers();
      return new Promise<SearchResult>((resolve) => {
        const span = Math.ceil((end - start) / threads);
        const parts = workers
          .map((w, i) => ({ w, from: start + i * span, to: Math.min(end, start + (i + 1) * span) }))
          .filter((p) => p.to > p.from);
        if (parts.length === 0) {
          releaseWhenIdle();
          return resolve({ status: 'exhausted' });
        }
        running = { generation, remaining: parts.length, exhausted: false, resolve };
        for (const p of parts) p.w.postMessage({ generation, prefix, difficulty, start: p.from, end: p.to });
      });
    },
    abort() {
      bump();
      settle({ status: 'aborted' });
    },
    hashes() {
      let total = 0n;
      for (let i = 0; i < threads; i++) total += Atomics.load(counters, i);
      return Number(total);
    },
    live() {
      return workers.length;
    },
    async close() {
      closed = true;
      clearTimeout(idleTimer);
      bump();
      settle({ status: 'aborted' });
      const stopping = workers;
      workers = [];
      await Promise.all(stopping.map((w) => w.terminate()));
    },
  };
}
