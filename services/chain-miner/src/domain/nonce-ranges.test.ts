import { describe, expect, it } from 'vitest';
import { MAX_RANGES, NONCE_RANGE, nonceRange } from './nonce-ranges.js';

describe('nonceRange', () => {
  it('gives disjoint, adjacent ranges of NONCE_RANGE nonces', () => {
    expect(nonceRange(0)).toEqual({ start: 0, end: NONCE_RANGE });
    expect(nonceRange(1)).toEqual({ start: NONCE_RANGE, end: 2 * NONCE_RANGE });
  });

  it('stops before nonces stop being safe integers', () => {
    const last = nonceRange(MAX_RANGES - 1);
    expect(last?.end).toBe(MAX_RANGES * NONCE_RANGE);
    expect(Number.isSafeInteger(last?.end)).toBe(true);
    expect(nonceRange(MAX_RANGES)).toBeUndefined();
  });
});
