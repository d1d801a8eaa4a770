import { describe, expect, it } from 'vitest';
import { retryDelayMs } from './backoff.js';

describe('retry back-off', () => {
  it('doubles per attempt up to the cap', () => {
    expect([1, 2, 3, 4, 10].map((a) => retryDelayMs(a, 1000, 8000, 0))).toEqual([1000, 2000, 4000, 8000, 8000]);
  });
  it('takes off at most a quarter as jitter', () => {
    expect(retryDelayMs(3, 1000, 60_000, 1)).toBe(3000);
    expect(retryDelayMs(3, 1000, 60_000, 0.5)).toBe(3500);
  });
});
