import type { RateLimitStore, WindowCount } from './store.js';

const SWEEP_EVERY_MS = 60_000;

/** Counters in this process's memory; expired entries are swept once a minute. */
export function createMemoryStore(now: () => number = Date.now): RateLimitStore {
  const windows = new Map<string, WindowCount>();
  const blocks = new Map<string, number>();
  const sweep = setInterval(() => {
    const t = now();
    for (const [key, w] of windows) if (w.resetAt <= t) windows.delete(key);
    for (const [key, until] of blocks) if (until <= t) blocks.delete(key);
  }, SWEEP_EVERY_MS);
  sweep.unref();

  return {
    async hit(key, windowMs) {
      const t = now();
      const current = windows.get(key);
      const next =
        current && current.resetAt > t
          ? { count: current.count + 1, resetAt: current.resetAt }
          : { count: 1, resetAt: t + windowMs };
      windows.set(key, next);
      return { ...next };
    },
    async block(key, ms) {
      blocks.set(key, now() + ms);
    },
    async blockedFor(key) {
      const until = blocks.get(key);
      return until === undefined ? 0 : Math.max(0, until - now());
    },
    async reset(key) {
      windows.delete(key);
      blocks.delete(key);
    },
    async close() {
      clearInterval(sweep);
      windows.clear();
      blocks.clear();
    },
  };
}
