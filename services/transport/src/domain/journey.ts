import type { Footprint, JourneyEvent } from '@rootline/contracts/transport';
import { BASELINE_METHOD, conventionalKg, quantityKg, roundKg } from './carbon.js';

/** A stored event as the journey reads it, before corrections are linked. */
export type StoredEvent = Omit<JourneyEvent, 'correctedBy'> & { eventAt: string };

/** Instant of an RFC 3339 time with offset, in ms. */
export function instantOf(eventTime: string): number {
  return new Date(eventTime).getTime();
}

/**
 * Why an event for a plant would run its journey backwards, or undefined when it does not: a new event may not be
 * earlier than the plant's latest one. A correction is exempt (it may fix a wrong time).
 */
export function backwardsInTime(eventTime: string, latestAt: string | undefined): string | undefined {
  if (!latestAt) return undefined;
  if (instantOf(eventTime) >= new Date(latestAt).getTime()) return undefined;
  return `A plant's journey cannot run backwards in time: its latest event is at ${new Date(latestAt).toISOString()}`;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Links each event to the latest event correcting it (`correctedBy`), in time order (instant, then recording
 * order). Events are never edited: a correction is a new event naming the one it replaces.
 */
export function linkCorrections<E extends Pick<StoredEvent, 'id' | 'corrects' | 'eventAt' | 'recordedAt'>>(
  events: readonly E[],
): (Omit<E, 'eventAt'> & { correctedBy: string | null })[] {
  const latestCorrection = new Map<string, E>();
  for (const e of events) {
    if (!e.corrects) continue;
    const seen = latestCorrection.get(e.corrects);
    if (!seen || seen.recordedAt <= e.recordedAt) latestCorrection.set(e.corrects, e);
  }
  return (
    [...events]
      // ISO UTC strings order as their instants; plain comparison, not localeCompare (ICU collation is slow).
      .sort((a, b) => compare(a.eventAt, b.eventAt) || compare(a.recordedAt, b.recordedAt))
      .map(({ eventAt: _, ...e }) => ({ ...e, correctedBy: latestCorrection.get(e.id)?.id ?? null }))
  );
}

/** Totals over the events still in force (a corrected event is replaced by its correction). */
export function journeyTotals(events: readonly JourneyEvent[]) {
  const counted = events.filter((e) => e.correctedBy === null);
  const times = counted.map((e) => instantOf(e.eventTime));
  const span = times.length > 1 ? Math.max(...times) - Math.min(...times) : 0;
  return {
    events: counted.length,
    // A hidden leg shows no distance and adds none.
    distanceKm: roundKg(counted.reduce((s, e) => s + (e.distanceKm ?? 0), 0)),
    kgCo2e: roundKg(counted.reduce((s, e) => s + (e.kgCo2e ?? 0), 0)),
    durationHours: Math.round((span / 3_600_000) * 100) / 100,
  };
}

/** Running totals of a journey (see the journey repository), as the journey answers them. */
export function summaryTotals(s: {
  inForce: number;
  distanceKm: number;
  kgCo2e: number;
  firstAt: number | null;
  lastAt: number | null;
}) {
  const span = s.firstAt !== null && s.lastAt !== null ? s.lastAt - s.firstAt : 0;
  return {
    events: s.inForce,
    distanceKm: roundKg(s.distanceKm),
    kgCo2e: roundKg(s.kgCo2e),
    durationHours: Math.round((span / 3_600_000) * 100) / 100,
  };
}

/** What a footprint reads of an event. */
export type FootprintEvent = Pick<JourneyEvent, 'kind' | 'transportMode' | 'massKg' | 'quantity' | 'correctedBy'> & {
  /** As measured: a footprint is its user's own (the journey shows others the rounded figure). */
  distanceKm: number;
  kgCo2e: number;
};

/** Kinds whose mass is delivered produce, compared with conventional logistics. */
export const DELIVERY_KINDS: readonly string[] = ['distribution'];

/** Baseline and saving of delivery events (see BASELINE_METHOD). */
export function deliverySavings(events: readonly FootprintEvent[]) {
  const deliveries = events.filter((e) => e.correctedBy === null && DELIVERY_KINDS.includes(e.kind));
  const deliveredKg = deliveries.reduce((s, e) => s + e.massKg, 0);
  const actual = deliveries.reduce((s, e) => s + e.kgCo2e, 0);
  const baseline = conventionalKg(deliveredKg);
  return {
    deliveredKg: roundKg(deliveredKg),
    actualKgCo2e: roundKg(actual),
    baselineKgCo2e: baseline,
    savedKgCo2e: roundKg(baseline - actual),
  };
}

/** A user's footprint: totals, per mode, per kind, per kg of harvested produce and against the baseline. */
export function footprintOf(userId: string, all: readonly FootprintEvent[]): Footprint {
  const events = all.filter((e) => e.correctedBy === null);
  const byMode: Footprint['byMode'] = {};
  const byKind: Footprint['byKind'] = {};
  for (const e of events) {
    for (const [map, key] of [
      [byMode, e.transportMode],
      [byKind, e.kind],
    ] as const) {
      const b = map[key] ?? { events: 0, distanceKm: 0, kgCo2e: 0 };
      map[key] = b;
      b.events += 1;
      b.distanceKm = roundKg(b.distanceKm + e.distanceKm);
      b.kgCo2e = roundKg(b.kgCo2e + e.kgCo2e);
    }
  }
  const kgCo2e = roundKg(events.reduce((s, e) => s + e.kgCo2e, 0));
  const produceKg = roundKg(
    events.filter((e) => e.kind === 'harvest').reduce((s, e) => s + (quantityKg(e.quantity) ?? 0), 0),
  );
  const savings = deliverySavings(events);
  return {
    userId,
    events: events.length,
    distanceKm: roundKg(events.reduce((s, e) => s + e.distanceKm, 0)),
    kgCo2e,
    byMode,
    byKind,
    produceKg,
    kgCo2ePerKgProduce: produceKg > 0 ? Math.round((kgCo2e / produceKg) * 10_000) / 10_000 : null,
    baseline: { kgCo2e: savings.baselineKgCo2e, savedKgCo2e: savings.savedKgCo2e, method: BASELINE_METHOD },
  };
}
