import { describe, expect, it } from 'vitest';
import { climateMonth, mondayOf, overlapDays, parseDate, seasonOf, weekStarts } from './calendar.js';

const d = (s: string) => parseDate(s) as Date;

describe('calendar', () => {
  it('parses real dates only', () => {
    expect(parseDate('2026-02-28')?.toISOString()).toBe('2026-02-28T00:00:00.000Z');
    expect(parseDate('2026-02-30')).toBeUndefined();
  });

  it('finds the Monday of a week and the following weeks', () => {
    expect(mondayOf(d('2026-11-23')).toISOString().slice(0, 10)).toBe('2026-11-23');
    expect(mondayOf(d('2026-11-29')).toISOString().slice(0, 10)).toBe('2026-11-23');
    expect(weekStarts(d('2026-11-25'), 2).map((w) => w.toISOString().slice(0, 10))).toEqual([
      '2026-11-23',
      '2026-11-30',
    ]);
  });

  it('mirrors months and seasons south of the equator', () => {
    expect(climateMonth(d('2026-01-10'), 52)).toBe(1);
    expect(climateMonth(d('2026-01-10'), -34)).toBe(7);
    expect(seasonOf(d('2026-07-01'), 52)).toBe('summer');
    expect(seasonOf(d('2026-07-01'), -34)).toBe('winter');
  });

  it('counts the days of a week inside a window', () => {
    expect(overlapDays(d('2026-11-23'), d('2026-11-25'), d('2026-12-31'))).toBe(5);
    expect(overlapDays(d('2026-11-23'), d('2026-12-01'), d('2026-12-31'))).toBe(0);
  });
});
