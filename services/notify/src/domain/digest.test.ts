import { describe, expect, it } from 'vitest';
import { digestLines, digestWeek } from './digest.js';

describe('weekly digest', () => {
  it('covers the last full week, Monday to Monday in UTC', () => {
    // Monday 23 November 2026, 08:00 UTC: the week of 16 November.
    const w = digestWeek(new Date('2026-11-23T08:00:00Z'));
    expect(w).toEqual({
      from: new Date('2026-11-16T00:00:00Z'),
      to: new Date('2026-11-23T00:00:00Z'),
      key: '2026-11-16',
    });
    // A Sunday just before midnight still belongs to the week before.
    expect(digestWeek(new Date('2026-11-22T23:59:59Z')).key).toBe('2026-11-09');
    expect(digestWeek(new Date('2026-11-23T00:00:00Z')).key).toBe('2026-11-16');
  });

  it('lists the week’s news, most frequent first, leaving out welcome and account messages', () => {
    expect(digestLines({ 'plant-registered': 1, 'demand-match': 3, welcome: 1, account: 2, marketplace: 0 })).toEqual([
      '3 demand matches',
      '1 plant registered',
    ]);
  });
});
