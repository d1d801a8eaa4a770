/**
 * The schedule of a scheduled EPCIS query subscription (ADR 320): the standard's QuerySchedule, whose fields
 * (`second`, `minute`, `hour`, `dayOfMonth`, `month`, `dayOfWeek`) are each a comma-separated list of numbers and
 * ranges `[low-high]` (EPCIS 1.2 §8.2.5.3, kept by EPCIS 2.0). A time matches when every field given matches it; times
 * are read in UTC. Fields finer than the finest one given are taken at their lowest value, so `{ hour: "1", minute:
 * "5" }` is due once a day at 01:05:00, as the REST binding's example says; a field coarser than the coarsest given
 * matches every value.
 */

export interface EpcisScheduleInput {
  second?: string;
  minute?: string;
  hour?: string;
  dayOfMonth?: string;
  month?: string;
  dayOfWeek?: string;
}

/** Each field as the set of values it matches (null: any). */
export interface ParsedSchedule {
  second: Set<number>;
  minute: Set<number>;
  hour: Set<number>;
  dayOfMonth: Set<number> | null;
  month: Set<number> | null;
  /** 1 Monday … 7 Sunday. */
  dayOfWeek: Set<number> | null;
}

/** A schedule the standard's grammar or ranges refuse, or one that is never due. */
export class ScheduleError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
  }
}

const FIELDS = [
  ['second', 0, 59],
  ['minute', 0, 59],
  ['hour', 0, 23],
  ['dayOfMonth', 1, 31],
  ['month', 1, 12],
  ['dayOfWeek', 1, 7],
] as const;

type Field = (typeof FIELDS)[number][0];

const ELEMENT = /^(?:(\d{1,2})|\[(\d{1,2})-(\d{1,2})\])$/;

/** One field's value: `Element ("," Element)*`, Element a Number or `[Number-Number]`, within the field's range. */
function parseField(field: Field, value: string, min: number, max: number): Set<number> {
  const out = new Set<number>();
  const parts = value.split(',');
  for (const raw of parts) {
    const part = raw.trim();
    const m = ELEMENT.exec(part);
    if (!m) throw new ScheduleError(field, `"${part}" is neither a number nor a range [low-high]`);
    const low = Number(m[1] ?? m[2]);
    const high = Number(m[1] ?? m[3]);
    for (const n of [low, high]) {
      if (n < min || n > max) throw new ScheduleError(field, `${n} is outside ${min} to ${max}`);
    }
    if (low > high) throw new ScheduleError(field, `the range [${low}-${high}] runs backwards`);
    for (let n = low; n <= high; n++) out.add(n);
  }
  return out;
}

/** Reads a schedule; throws ScheduleError for one the standard refuses (its SubscriptionControlsException). */
export function parseSchedule(input: EpcisScheduleInput): ParsedSchedule {
  const sets: Partial<Record<Field, Set<number>>> = {};
  for (const [field, min, max] of FIELDS) {
    const value = input[field];
    if (value !== undefined) sets[field] = parseField(field, value, min, max);
  }
  // Fields finer than the finest one given are taken at their lowest value (see the module's comment).
  const finest = FIELDS.findIndex(([f]) => sets[f] !== undefined);
  const timeOfDay = (i: number, field: 'second' | 'minute' | 'hour', max: number): Set<number> =>
    sets[field] ?? (finest > i ? new Set([0]) : new Set(Array.from({ length: max + 1 }, (_, n) => n)));
  const parsed: ParsedSchedule = {
    second: timeOfDay(0, 'second', 59),
    minute: timeOfDay(1, 'minute', 59),
    hour: timeOfDay(2, 'hour', 23),
    dayOfMonth: sets.dayOfMonth ?? null,
    month: sets.month ?? null,
    dayOfWeek: sets.dayOfWeek ?? null,
  };
  if (nextDueOf(parsed, new Date(Date.UTC(2000, 0, 1))) === null) {
    throw new ScheduleError('schedule', 'no day matches its dayOfMonth, month and dayOfWeek together');
  }
  return parsed;
}

/** The Gregorian calendar repeats its days of the week and leap years every 400 years. */
const CYCLE_MONTHS = 400 * 12;

const daysIn = (year: number, month0: number) => new Date(Date.UTC(year, month0 + 1, 0)).getUTCDate();
const sorted = (s: Set<number>) => [...s].sort((a, b) => a - b);

/** The first time (whole seconds, UTC) strictly after `after` the schedule matches; null when none ever does. */
export function nextDueOf(s: ParsedSchedule, after: Date): Date | null {
  const start = new Date(Math.floor(after.getTime() / 1000) * 1000 + 1000);
  const hours = sorted(s.hour);
  const minutes = sorted(s.minute);
  const seconds = sorted(s.second);
  let year = start.getUTCFullYear();
  let month0 = start.getUTCMonth();
  for (let i = 0; i <= CYCLE_MONTHS; i++, month0++) {
    if (month0 === 12) {
      month0 = 0;
      year++;
    }
    if (s.month && !s.month.has(month0 + 1)) continue;
    const sameMonth = i === 0;
    const firstDay = sameMonth ? start.getUTCDate() : 1;
    for (let day = firstDay; day <= daysIn(year, month0); day++) {
      if (s.dayOfMonth && !s.dayOfMonth.has(day)) continue;
      const weekday = ((new Date(Date.UTC(year, month0, day)).getUTCDay() + 6) % 7) + 1;
      if (s.dayOfWeek && !s.dayOfWeek.has(weekday)) continue;
      const sameDay = sameMonth && day === start.getUTCDate();
      for (const h of hours) {
        if (sameDay && h < start.getUTCHours()) continue;
        const sameHour = sameDay && h === start.getUTCHours();
        for (const m of minutes) {
          if (sameHour && m < start.getUTCMinutes()) continue;
          const sameMinute = sameHour && m === start.getUTCMinutes();
          for (const sec of seconds) {
            if (sameMinute && sec < start.getUTCSeconds()) continue;
            return new Date(Date.UTC(year, month0, day, h, m, sec));
          }
        }
      }
    }
  }
  return null;
}

/** The next due time of a stored schedule after `after` (checked when it was stored, so there is always one). */
export function nextDue(input: EpcisScheduleInput, after: Date): Date {
  const next = nextDueOf(parseSchedule(input), after);
  if (!next) throw new ScheduleError('schedule', 'never due');
  return next;
}
