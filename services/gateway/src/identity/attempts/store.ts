/** A counter after one more hit: how many hits the window has seen, and when it ends (ms since the epoch). */
export interface WindowCount {
  count: number;
  resetAt: number;
}

/**
 * Where the sign-in protection (per-account attempt limits, back-off after failures) keeps its counters and
 * blocks: in memory for one gateway, in Redis for replicas that must share them. The general request limits
 * are @fastify/rate-limit's, on its own stores.
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
