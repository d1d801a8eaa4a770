import { describe, expect, it } from 'vitest';
import { nextDue, nextDueOf, parseSchedule, ScheduleError } from './epcis-schedule.js';

const at = (iso: string) => new Date(iso);
const next = (schedule: Parameters<typeof parseSchedule>[0], after: string) =>
  nextDue(schedule, at(after)).toISOString();
/** The first `n` due times after `after`. */
const series = (schedule: Parameters<typeof parseSchedule>[0], after: string, n: number) => {
  const out: string[] = [];
  let t = at(after);
  for (let i = 0; i < n; i++) {
    t = nextDue(schedule, t);
    out.push(t.toISOString());
  }
  return out;
};

describe('the next due time of an EPCIS QuerySchedule', () => {
  it('is once a day at 01:05:00 for the REST binding’s { hour: "1", minute: "5" } (finer fields at their lowest)', () => {
    expect(next({ hour: '1', minute: '5' }, '2026-06-01T00:00:00Z')).toBe('2026-06-01T01:05:00.000Z');
    expect(next({ hour: '1', minute: '5' }, '2026-06-01T01:05:00Z')).toBe('2026-06-02T01:05:00.000Z');
    expect(next({ hour: '1', minute: '5' }, '2026-06-01T01:04:59.999Z')).toBe('2026-06-01T01:05:00.000Z');
  });

  it('is every second for a schedule naming every second, and strictly after the time given', () => {
    expect(series({ second: '[0-59]' }, '2026-06-01T23:59:58.500Z', 3)).toEqual([
      '2026-06-01T23:59:59.000Z',
      '2026-06-02T00:00:00.000Z',
      '2026-06-02T00:00:01.000Z',
    ]);
    // Nothing given: every field matches every value (the standard's literal reading).
    expect(series({}, '2026-06-01T00:00:00Z', 2)).toEqual(['2026-06-01T00:00:01.000Z', '2026-06-01T00:00:02.000Z']);
  });

  it('takes lists and ranges, in any order, and coarser fields left out match everything', () => {
    expect(series({ second: '0', minute: '45,[10-11],0' }, '2026-06-01T10:05:00Z', 5)).toEqual([
      '2026-06-01T10:10:00.000Z',
      '2026-06-01T10:11:00.000Z',
      '2026-06-01T10:45:00.000Z',
      '2026-06-01T11:00:00.000Z',
      '2026-06-01T11:10:00.000Z',
    ]);
    // The standard's example 3: at the top of each hour on weekdays only (2026-06-05 is a Friday).
    expect(series({ second: '0', minute: '0', dayOfWeek: '[1-5]' }, '2026-06-05T22:30:00Z', 2)).toEqual([
      '2026-06-05T23:00:00.000Z',
      '2026-06-08T00:00:00.000Z',
    ]);
  });

  it('needs dayOfMonth and dayOfWeek both to match when both are given (not cron’s either)', () => {
    // The 13th falling on a Friday (dayOfWeek 5): after 2026-02-13, next in March 2026.
    expect(next({ hour: '8', dayOfMonth: '13', dayOfWeek: '5' }, '2026-02-14T00:00:00Z')).toBe(
      '2026-03-13T08:00:00.000Z',
    );
    // Sundays are 7, Mondays 1.
    expect(next({ hour: '0', dayOfWeek: '7' }, '2026-06-01T00:00:00Z')).toBe('2026-06-07T00:00:00.000Z');
    expect(next({ hour: '0', dayOfWeek: '1' }, '2026-06-01T00:00:00Z')).toBe('2026-06-08T00:00:00.000Z');
  });

  it('skips months without the day, finds leap days, and crosses the year', () => {
    expect(next({ hour: '0', dayOfMonth: '31' }, '2026-04-01T00:00:00Z')).toBe('2026-05-31T00:00:00.000Z');
    expect(next({ hour: '0', dayOfMonth: '29', month: '2' }, '2026-01-01T00:00:00Z')).toBe('2028-02-29T00:00:00.000Z');
    expect(next({ hour: '0', dayOfMonth: '[30-31]' }, '2026-02-01T00:00:00Z')).toBe('2026-03-30T00:00:00.000Z');
    expect(next({ hour: '12', month: '1', dayOfMonth: '1' }, '2026-06-01T00:00:00Z')).toBe('2027-01-01T12:00:00.000Z');
    // 29 February on a Monday: the next after 2026 is in 2044.
    expect(next({ hour: '0', dayOfMonth: '29', month: '2', dayOfWeek: '1' }, '2026-01-01T00:00:00Z')).toBe(
      '2044-02-29T00:00:00.000Z',
    );
  });

  it('refuses what the standard’s grammar or ranges refuse, and schedules that are never due', () => {
    const refused = (schedule: Parameters<typeof parseSchedule>[0]) => {
      try {
        parseSchedule(schedule);
      } catch (err) {
        expect(err).toBeInstanceOf(ScheduleError);
        return (err as ScheduleError).message;
      }
      throw new Error(`${JSON.stringify(schedule)} was taken`);
    };
    expect(refused({ second: '60' })).toMatch(/^second: 60 is outside 0 to 59/);
    expect(refused({ hour: '24' })).toMatch(/^hour: /);
    expect(refused({ dayOfMonth: '0' })).toMatch(/^dayOfMonth: /);
    expect(refused({ month: '13' })).toMatch(/^month: /);
    expect(refused({ dayOfWeek: '0' })).toMatch(/^dayOfWeek: /);
    expect(refused({ minute: '[10-5]' })).toMatch(/runs backwards/);
    expect(refused({ minute: '5-10' })).toMatch(/neither a number nor a range/);
    expect(refused({ minute: '*' })).toMatch(/neither/);
    expect(refused({ minute: '' })).toMatch(/neither/);
    expect(refused({ minute: '1,,2' })).toMatch(/neither/);
    expect(refused({ minute: '-1' })).toMatch(/neither/);
    expect(refused({ dayOfMonth: '30', month: '2' })).toMatch(/^schedule: no day matches/);
    expect(refused({ dayOfMonth: '31', month: '[4-4],6,9,11' })).toMatch(/^schedule: /);
  });

  it('is answered for a parsed schedule without a throw, null when never due', () => {
    const s = parseSchedule({ second: '30' });
    expect(nextDueOf(s, at('2026-06-01T00:00:30Z'))?.toISOString()).toBe('2026-06-01T00:01:30.000Z');
    expect(nextDueOf({ ...s, dayOfMonth: new Set([31]), month: new Set([2]) }, at('2026-01-01T00:00:00Z'))).toBe(null);
  });
});
