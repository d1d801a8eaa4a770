/** A counter after one more hit: how many hits the window has seen, and when it ends (ms since the epoch). */
export interface WindowCount {
  count: number;
  resetAt: number;
}

/**
 * Where rate-limit counters live: in memory for one gateway, in Redis for replicas that must share them.
 * Fixed windows: the first hit on a key opens a window of `windowMs`; hits count until it ends.
 */
export interface RateLimitStore {
  /** Counts one hit on `key` and returns the window's count and end. */
  hit(key: string, windowMs: number): Promise<WindowCount>;
  /** Places a block on `key` for `ms` (replacing a shorter or longer one). */
  block(key: string, ms: number): Promise<void>;
  /** Milliseconds left on the block of `key`; 0 when there is none. */
  blockedFor(key: string): Promise<number>;
  /** Forgets a key's counter or block. */
  reset(key: string): Promise<void>;
  close(): Promise<void>;
}
