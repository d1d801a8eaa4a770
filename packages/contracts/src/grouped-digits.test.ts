import { describe, expect, it } from 'vitest';
import { groupedDigits, NearbyPagination, SearchPagination } from './index.js';

describe('groupedDigits', () => {
  it('groups whole numbers by thousands, as English text writes them', () => {
    expect(groupedDigits(0)).toBe('0');
    expect(groupedDigits(100)).toBe('100');
    expect(groupedDigits(1000)).toBe('1,000');
    expect(groupedDigits(1001)).toBe('1,001');
    expect(groupedDigits(123456789)).toBe('123,456,789');
    expect(groupedDigits(-1234567)).toBe('-1,234,567');
  });

  it('writes what toLocaleString("en") writes for whole numbers', () => {
    for (const n of [7, 999, 1000, 65_536, 1_000_000, Number.MAX_SAFE_INTEGER, -42_000]) {
      expect(groupedDigits(n)).toBe(n.toLocaleString('en'));
    }
  });

  it('refuses what is not a whole number', () => {
    expect(() => groupedDigits(1.5)).toThrow(RangeError);
    expect(() => groupedDigits(Number.NaN)).toThrow(RangeError);
  });

  it('writes the exact-total limits into the pagination descriptions', () => {
    expect(NearbyPagination.properties.total.description).toContain('exact up to 100,');
    expect(SearchPagination.properties.total.description).toContain('exact up to 1,000,');
  });
});
