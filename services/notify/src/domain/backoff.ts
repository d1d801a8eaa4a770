/**
 * Delay before the next attempt of a failed send: doubling from `baseMs` per attempt (1 → base, 2 → 2×base …),
 * capped at `maxMs`, with up to a quarter of random jitter so instances retrying together spread out.
 */
export function retryDelayMs(attempt: number, baseMs: number, maxMs: number, random: number): number {
  const plain = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(plain * (1 - 0.25 * random));
}
