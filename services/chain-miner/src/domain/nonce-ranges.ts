/**
 * Nonces per range: the appender searches range 0 of each header, every helper request gets the next one.
 * 2^32 nonces last about twenty minutes of one core, far beyond any block at a usable difficulty.
 */
export const NONCE_RANGE = 2 ** 32;
/** Ranges per header, so that every nonce stays a safe integer (2^20 × 2^32 = 2^52). */
export const MAX_RANGES = 2 ** 20;

/** The nonces [start, end) of range `range` of a header; undefined past the last range. */
export function nonceRange(range: number): { start: number; end: number } | undefined {
  if (range >= MAX_RANGES) return undefined;
  return { start: range * NONCE_RANGE, end: (range + 1) * NONCE_RANGE };
}
