import { batchFailed, batchHarvested, batchStarted } from '@rootline/contracts/farm-batches';
import { plantCloned, plantRegistered } from '@rootline/contracts/plants';
import { transportCompleted } from '@rootline/contracts/transport';

/** One domain event as the analytics read model sees it. */
export interface AnalyticsEvent {
  subject: string;
  /** When the event happened (ISO 8601); its UTC day is the bucket, except for journeys (their `eventTime`). */
  occurredAt: string;
  payload: unknown;
}

/** The series of the read model; docs/analytics.md lists each one's dimensions. */
export type RollupSeries =
  | 'plants' // d1 species, d2 privacy level
  | 'propagations' // d1 propagation type
  | 'transport' // d1 kind, d2 mode
  | 'transport-user' // d1 handler, d2 kind, d3 mode
  | 'farm-batches' // d1 crop
  | 'farm-harvests' // d1 crop
  | 'farm-failures'; // no dimension: the event names no crop

/** What one or more events add to one counter row (a day, a series and its dimension values). */
export interface RollupIncrement {
  series: RollupSeries;
  day: string;
  d1: string;
  d2: string;
  d3: string;
  count: number;
  distanceKm: number;
  kgCo2e: number;
  yieldKg: number;
}

/** What a journey event contributes, kept so that a correction can take it back out. */
export interface TransportFact {
  eventId: string;
  day: string;
  kind: string;
  mode: string;
  handlerId: string;
  distanceKm: number;
  kgCo2e: number;
  /** The event this one corrects, if any. */
  corrects: string | null;
}

// Dimension values come from user input (names of plants and crops): bounded, so a row key stays small.
const MAX_KEY = 200;

const record = (p: unknown): Record<string, unknown> =>
  typeof p === 'object' && p !== null ? (p as Record<string, unknown>) : {};
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
const key = (v: unknown): string => (text(v) ?? '').slice(0, MAX_KEY);
const finite = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** The UTC day (`YYYY-MM-DD`) of an ISO 8601 instant, or undefined when it is not one. */
export function utcDay(instant: unknown): string | undefined {
  if (typeof instant !== 'string') return undefined;
  const ms = Date.parse(instant);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString().slice(0, 10);
}

function increment(
  series: RollupSeries,
  day: string,
  dims: [string?, string?, string?],
  figures: Partial<Pick<RollupIncrement, 'count' | 'distanceKm' | 'kgCo2e' | 'yieldKg'>> = {},
): RollupIncrement {
  return {
    series,
    day,
    d1: dims[0] ?? '',
    d2: dims[1] ?? '',
    d3: dims[2] ?? '',
    count: figures.count ?? 1,
    distanceKm: figures.distanceKm ?? 0,
    kgCo2e: figures.kgCo2e ?? 0,
    yieldKg: figures.yieldKg ?? 0,
  };
}

/** The journey event's contribution, or undefined when the event is not a journey event (or lacks its ids). */
export function transportFact(event: AnalyticsEvent): TransportFact | undefined {
  if (event.subject !== transportCompleted.subject) return undefined;
  const p = record(event.payload);
  const eventId = text(p.eventId);
  const handlerId = text(p.handlerId);
  const day = utcDay(p.eventTime) ?? utcDay(event.occurredAt);
  if (!eventId || !handlerId || !day) return undefined;
  return {
    eventId,
    day,
    kind: key(p.kind),
    mode: key(p.transportMode) || 'none',
    handlerId: handlerId.slice(0, MAX_KEY),
    distanceKm: finite(p.distanceKm),
    kgCo2e: finite(p.kgCo2e),
    corrects: text(p.corrects) ?? null,
  };
}

/** The counters a journey event adds (sign 1) or, once corrected, takes back (sign −1). */
export function factIncrements(fact: Omit<TransportFact, 'corrects'>, sign: 1 | -1): RollupIncrement[] {
  const figures = { count: sign, distanceKm: sign * fact.distanceKm, kgCo2e: sign * fact.kgCo2e };
  return [
    increment('transport', fact.day, [fact.kind, fact.mode], figures),
    increment('transport-user', fact.day, [fact.handlerId, fact.kind, fact.mode], figures),
  ];
}

/**
 * The counter increments of one domain event: empty for events analytics does not count. Pure, so the same
 * mapping serves one event and a batch. A journey event's correction is not handled here (it needs the corrected
 * event's stored contribution): see `applyManyToAnalytics`.
 */
export function rollupIncrements(event: AnalyticsEvent): RollupIncrement[] {
  const p = record(event.payload);
  const day = utcDay(event.occurredAt);
  switch (event.subject) {
    case plantRegistered.subject:
      if (!day) return [];
      return [increment('plants', day, [key(p.scientificName) || key(p.commonName), key(p.privacyLevel)])];
    case plantCloned.subject:
      if (!day) return [];
      return [increment('propagations', day, [key(p.propagationType)])];
    case transportCompleted.subject: {
      const fact = transportFact(event);
      return fact ? factIncrements(fact, 1) : [];
    }
    case batchStarted.subject:
      if (!day) return [];
      return [increment('farm-batches', day, [key(p.crop)])];
    case batchHarvested.subject:
      if (!day) return [];
      return [increment('farm-harvests', day, [key(p.crop)], { yieldKg: finite(p.yieldKg) })];
    case batchFailed.subject:
      if (!day) return [];
      return [increment('farm-failures', day, [])];
    default:
      return [];
  }
}

const rowKey = (i: RollupIncrement) => `${i.series}\u0000${i.day}\u0000${i.d1}\u0000${i.d2}\u0000${i.d3}`;

/**
 * Sums increments of the same row, in a stable order (by row key) so that concurrent writers lock rows in the
 * same order. Rows whose figures all cancel out are dropped.
 */
export function mergeIncrements(increments: readonly RollupIncrement[]): RollupIncrement[] {
  const rows = new Map<string, RollupIncrement>();
  for (const i of increments) {
    const k = rowKey(i);
    const row = rows.get(k);
    if (!row) rows.set(k, { ...i });
    else {
      row.count += i.count;
      row.distanceKm += i.distanceKm;
      row.kgCo2e += i.kgCo2e;
      row.yieldKg += i.yieldKg;
    }
  }
  return [...rows.entries()]
    .filter(([, r]) => r.count !== 0 || r.distanceKm !== 0 || r.kgCo2e !== 0 || r.yieldKg !== 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, r]) => r);
}
