import { describe, expect, it } from 'vitest';
import { ACCOUNT_FAILURES_BEFORE_BACKOFF, backoffSeconds } from './backoff.js';

describe('sign-in back-off', () => {
  it('lets the first failures through without waiting', () => {
    for (let n = 0; n < ACCOUNT_FAILURES_BEFORE_BACKOFF; n++) expect(backoffSeconds(n, 5)).toBe(0);
  });

  it('then waits 30 s, doubling with each failure, up to 15 minutes', () => {
    expect([5, 6, 7, 8, 9, 10, 11, 50].map((n) => backoffSeconds(n, 5))).toEqual([
      30, 60, 120, 240, 480, 900, 900, 900,
    ]);
  });

  it('counts from its own threshold', () => {
    expect(backoffSeconds(19, 20)).toBe(0);
    expect(backoffSeconds(20, 20)).toBe(30);
  });
});
