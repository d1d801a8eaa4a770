import {
  ANALYTICS_DEFAULT_DAYS,
  ANALYTICS_MAX_DAYS,
  type AnalyticsFarms,
  type AnalyticsGrouping,
  type AnalyticsOverview,
  type AnalyticsPlants,
  type AnalyticsTransport,
} from '@rootline/contracts/analytics';
import { AppError } from '@rootline/contracts/errors';
import type { RollupSeries } from './analytics-rollup.js';

/** Counters summed per period, series and the dimensions a query kept (in its order). */
export interface RollupRow {
  period: string;
  series: RollupSeries;
  keys: string[];
  count: number;
  distanceKm: number;
  kgCo2e: number;
  yieldKg: number;
}

/** The days an answer covers (both included) and the length of its periods. */
export interface AnalyticsRange {
  from: string;
  to: string;
  groupBy: AnalyticsGrouping;
}

const DAY_MS = 86_400_000;

function parseDay(value: string, field: 'from' | 'to'): number {
  const ms = Date.parse(`${value}T00:00:00Z`);
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value) {
    throw new AppError('VALIDATION_ERROR', `${field}: ${value} is not a calendar day (YYYY-MM-DD)`, {
      field,
      reason: 'invalid-date',
    });
  }
  return ms;
}

/**
 * The range of a request: `to` defaults to today (UTC), `from` to the 29 days before `to`. Refuses a day that
 * does not exist, `from` after `to` and a range longer than ANALYTICS_MAX_DAYS.
 */
export function resolveRange(
  input: { from?: string | undefined; to?: string | undefined; groupBy: AnalyticsGrouping },
  now: Date,
): AnalyticsRange {
  const to = input.to ?? now.toISOString().slice(0, 10);
  const toMs = parseDay(to, 'to');
  const from = input.from ?? new Date(toMs - (ANALYTICS_DEFAULT_DAYS - 1) * DAY_MS).toISOString().slice(0, 10);
  const fromMs = parseDay(from, 'from');
  if (fromMs > toMs)
    throw new AppError('VALIDATION_ERROR', `from (${from}) is after to (${to})`, {
      field: 'from',
      reason: 'from-after-to',
    });
  const days = (toMs - fromMs) / DAY_MS + 1;
  if (days > ANALYTICS_MAX_DAYS) {
    throw new AppError('VALIDATION_ERROR', `from–to covers ${days} days; at most ${ANALYTICS_MAX_DAYS}`, {
      field: 'from',
      reason: 'range-too-long',
    });
  }
  return { from, to, groupBy: input.groupBy };
}

// Sums of floating-point increments (and take-backs of corrections) carry noise far below any real figure.
const round = (n: number) => Math.round(n * 1e6) / 1e6;
const keyOf = (r: RollupRow) => (r.keys[0] ? r.keys[0] : null);

/** Sums rows by period and key into objects made by `blank` and filled by `add`, oldest period first. */
function collect<T extends { period: string; key: string | null }>(
  rows: readonly RollupRow[],
  blank: (period: string, key: string | null) => T,
  add: (into: T, row: RollupRow) => void,
): T[] {
  const out = new Map<string, T>();
  for (const r of rows) {
    const key = keyOf(r);
    const id = `${r.period}\u0000${key ?? ''}`;
    let into = out.get(id);
    if (!into) {
      into = blank(r.period, key);
      out.set(id, into);
    }
    add(into, r);
  }
  return [...out.values()].sort((a, b) =>
    a.period === b.period ? (a.key ?? '').localeCompare(b.key ?? '') : a.period < b.period ? -1 : 1,
  );
}

const sum = <T>(items: readonly T[], pick: (t: T) => number) => round(items.reduce((s, t) => s + pick(t), 0));

/** /analytics/plants from series plants (keyed by the dimension asked for) and propagations. */
export function plantsReport(range: AnalyticsRange, by: AnalyticsPlants['by'], rows: RollupRow[]): AnalyticsPlants {
  const plants = rows.filter((r) => r.series === 'plants');
  const series = collect(
    plants,
    (period, key) => ({ period, key, registered: 0 }),
    (into, r) => {
      into.registered += r.count;
    },
  ).filter((r) => r.registered !== 0);
  return {
    ...range,
    by,
    totals: {
      registered: sum(plants, (r) => r.count),
      propagated: sum(
        rows.filter((r) => r.series === 'propagations'),
        (r) => r.count,
      ),
    },
    series,
  };
}

/** /analytics/transport from series transport (keyed by kind or mode). */
export function transportReport(
  range: AnalyticsRange,
  by: AnalyticsTransport['by'],
  rows: RollupRow[],
): AnalyticsTransport {
  const series = collect(
    rows,
    (period, key) => ({ period, key, events: 0, distanceKm: 0, kgCo2e: 0 }),
    (into, r) => {
      into.events += r.count;
      into.distanceKm = round(into.distanceKm + r.distanceKm);
      into.kgCo2e = round(into.kgCo2e + r.kgCo2e);
    },
  ).filter((r) => r.events !== 0);
  return {
    ...range,
    by,
    totals: {
      events: sum(series, (r) => r.events),
      distanceKm: sum(series, (r) => r.distanceKm),
      kgCo2e: sum(series, (r) => r.kgCo2e),
    },
    series,
  };
}

/** /analytics/farms from series farm-batches, farm-harvests and farm-failures (keyed by crop, or not). */
export function farmsReport(range: AnalyticsRange, by: AnalyticsFarms['by'], rows: RollupRow[]): AnalyticsFarms {
  const series = collect(
    rows,
    (period, key) => ({ period, key, batchesStarted: 0, harvests: 0, yieldKg: 0, batchesFailed: 0 }),
    (into, r) => {
      if (r.series === 'farm-batches') into.batchesStarted += r.count;
      else if (r.series === 'farm-harvests') {
        into.harvests += r.count;
        into.yieldKg = round(into.yieldKg + r.yieldKg);
      } else if (r.series === 'farm-failures') into.batchesFailed += r.count;
    },
  );
  return {
    ...range,
    by,
    totals: {
      batchesStarted: sum(series, (r) => r.batchesStarted),
      harvests: sum(series, (r) => r.harvests),
      yieldKg: sum(series, (r) => r.yieldKg),
      batchesFailed: sum(series, (r) => r.batchesFailed),
    },
    series,
  };
}

interface SustainabilityFigures {
  events: number;
  distanceKm: number;
  kgCo2e: number;
  seedSavingEvents: number;
  seedSharingEvents: number;
}

const noFigures = (): SustainabilityFigures => ({
  events: 0,
  distanceKm: 0,
  kgCo2e: 0,
  seedSavingEvents: 0,
  seedSharingEvents: 0,
});

interface Travel {
  events: number;
  distanceKm: number;
  kgCo2e: number;
}

function addTravel(into: Travel, r: RollupRow) {
  into.events += r.count;
  into.distanceKm = round(into.distanceKm + r.distanceKm);
  into.kgCo2e = round(into.kgCo2e + r.kgCo2e);
}

function addJourney(into: SustainabilityFigures, kind: string, r: RollupRow) {
  addTravel(into, r);
  if (kind === 'seed-saving') into.seedSavingEvents += r.count;
  if (kind === 'seed-sharing') into.seedSharingEvents += r.count;
}

/**
 * Sustainability figures of journey rows keyed [kind, mode] (series transport, or transport-user of one user):
 * totals, per mode (most kg CO2e first), per period, and per period and mode (for the export).
 */
export function sustainabilityScope(rows: readonly RollupRow[]) {
  const totals = noFigures();
  const modes = new Map<string, Travel & { mode: string }>();
  const periods = new Map<string, SustainabilityFigures & { period: string }>();
  const periodModes = new Map<string, Travel & { period: string; key: string }>();
  for (const r of rows) {
    const [kind = '', mode = 'none'] = r.keys;
    addJourney(totals, kind, r);
    const m = modes.get(mode) ?? { mode, events: 0, distanceKm: 0, kgCo2e: 0 };
    modes.set(mode, m);
    addTravel(m, r);
    const p = periods.get(r.period) ?? { period: r.period, ...noFigures() };
    periods.set(r.period, p);
    addJourney(p, kind, r);
    const pmId = `${r.period}\u0000${mode}`;
    const pm = periodModes.get(pmId) ?? { period: r.period, key: mode, events: 0, distanceKm: 0, kgCo2e: 0 };
    periodModes.set(pmId, pm);
    addTravel(pm, r);
  }
  const byPeriod = <T extends { period: string }>(a: T, b: T) =>
    a.period < b.period ? -1 : a.period > b.period ? 1 : 0;
  return {
    totals,
    byMode: [...modes.values()]
      .filter((m) => m.events !== 0)
      .sort((a, b) => b.kgCo2e - a.kgCo2e || a.mode.localeCompare(b.mode)),
    series: [...periods.values()].filter((p) => p.events !== 0).sort(byPeriod),
    seriesByMode: [...periodModes.values()]
      .filter((p) => p.events !== 0)
      .sort((a, b) => byPeriod(a, b) || a.key.localeCompare(b.key)),
  };
}

/** /analytics/overview from unkeyed rows of plants, propagations and farm series, and journey rows keyed [kind, mode]. */
export function overviewReport(range: AnalyticsRange, rows: RollupRow[], journeys: RollupRow[]): AnalyticsOverview {
  type Row = AnalyticsOverview['series'][number];
  const zero = (period: string): Row => ({
    period,
    plantsRegistered: 0,
    plantsPropagated: 0,
    transportEvents: 0,
    distanceKm: 0,
    kgCo2e: 0,
    seedSavingEvents: 0,
    seedSharingEvents: 0,
    batchesStarted: 0,
    harvests: 0,
    yieldKg: 0,
    batchesFailed: 0,
  });
  const periods = new Map<string, Row>();
  const at = (period: string): Row => {
    const row = periods.get(period) ?? zero(period);
    periods.set(period, row);
    return row;
  };
  for (const r of rows) {
    const row = at(r.period);
    if (r.series === 'plants') row.plantsRegistered += r.count;
    else if (r.series === 'propagations') row.plantsPropagated += r.count;
    else if (r.series === 'farm-batches') row.batchesStarted += r.count;
    else if (r.series === 'farm-harvests') {
      row.harvests += r.count;
      row.yieldKg = round(row.yieldKg + r.yieldKg);
    } else if (r.series === 'farm-failures') row.batchesFailed += r.count;
  }
  for (const p of sustainabilityScope(journeys).series) {
    const row = at(p.period);
    row.transportEvents = p.events;
    row.distanceKm = p.distanceKm;
    row.kgCo2e = p.kgCo2e;
    row.seedSavingEvents = p.seedSavingEvents;
    row.seedSharingEvents = p.seedSharingEvents;
  }
  const series = [...periods.values()].sort((a, b) => (a.period < b.period ? -1 : 1));
  const { period: _, ...totals } = zero('');
  for (const row of series) {
    for (const k of Object.keys(totals) as (keyof typeof totals)[]) totals[k] = round(totals[k] + row[k]);
  }
  return { ...range, totals, series };
}
