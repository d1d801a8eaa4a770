import type { Season } from '@rootline/contracts/demand';

const DAY_MS = 86_400_000;

/** A `YYYY-MM-DD` date as UTC midnight; undefined when it is not a real date (2026-02-30). */
export function parseDate(text: string): Date | undefined {
  const d = new Date(`${text}T00:00:00Z`);
  return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== text ? undefined : d;
}

/** `YYYY-MM-DD` of a date (UTC). */
export function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

export function addDays(d: Date, days: number): Date {
  return new Date(d.getTime() + days * DAY_MS);
}

/** Days from `a` to `b`. */
export function daysBetween(a: Date, b: Date): number {
  return Math.round((b.getTime() - a.getTime()) / DAY_MS);
}

/** The Monday (UTC) of the ISO week holding the date. */
export function mondayOf(d: Date): Date {
  const day = (d.getUTCDay() + 6) % 7;
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - day));
}

/** Month 1–12 as the northern-hemisphere tables read it: south of the equator the calendar is six months off. */
export function climateMonth(d: Date, latitude: number): number {
  const m = d.getUTCMonth() + 1;
  return latitude < 0 ? ((m + 5) % 12) + 1 : m;
}

/** Meteorological season of a date at a latitude (spring = March to May in the north, September to November south). */
export function seasonOf(d: Date, latitude: number): Season {
  const m = climateMonth(d, latitude);
  if (m >= 3 && m <= 5) return 'spring';
  if (m >= 6 && m <= 8) return 'summer';
  if (m >= 9 && m <= 11) return 'autumn';
  return 'winter';
}

/** The Mondays of `weeks` weeks starting with the week of `from`. */
export function weekStarts(from: Date, weeks: number): Date[] {
  const first = mondayOf(from);
  return Array.from({ length: weeks }, (_, i) => addDays(first, 7 * i));
}

/** Days of the week starting `monday` that fall inside [from, to] (both inclusive). */
export function overlapDays(monday: Date, from: Date, to: Date): number {
  const start = Math.max(monday.getTime(), from.getTime());
  const end = Math.min(addDays(monday, 6).getTime(), to.getTime());
  return end < start ? 0 : Math.round((end - start) / DAY_MS) + 1;
}
