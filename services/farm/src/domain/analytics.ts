import type { FarmFigures } from '@rootline/contracts/farm-analytics';

const DAY_MS = 86_400_000;
/**
 * The least time a harvested batch counts as occupying its space, in days. A batch started and harvested within
 * seconds (a correction, a trial run) would otherwise divide its yield by a few m²·seconds and extrapolate it to
 * millions of kg per m² per year (ADR 206).
 */
export const MIN_OCCUPIED_DAYS = 1;

export interface ZoneFacts {
  id: string;
  name: string;
  areaM2: number;
  capacity: number;
}

export interface BatchFacts {
  id: string;
  zoneId: string;
  recipeId: string;
  crop: string;
  plantCount: number;
  status: 'open' | 'harvested' | 'failed';
  startedAt: Date;
  closedAt: Date | null;
  yieldKg: number | null;
}

export interface ReadingCounts {
  count: number;
  inTarget: number;
}

export interface AnalyticsInput {
  from: Date;
  to: Date;
  zones: readonly ZoneFacts[];
  /** Batches that overlap the period. */
  batches: readonly BatchFacts[];
  /** Readings of the period per batch. */
  readings: ReadonlyMap<string, ReadingCounts>;
}

const round = (v: number, places = 4) => Math.round(v * 10 ** places) / 10 ** places;
const ratio = (a: number, b: number, places = 4) => (b > 0 ? round(a / b, places) : null);
const within = (t: Date, from: Date, to: Date) => t.getTime() >= from.getTime() && t.getTime() < to.getTime();

/** Days of [a, b) that fall within [from, to). */
function overlapDays(a: Date, b: Date, from: Date, to: Date): number {
  const start = Math.max(a.getTime(), from.getTime());
  const end = Math.min(b.getTime(), to.getTime());
  return Math.max(0, end - start) / DAY_MS;
}

/** m²·days a harvested batch occupied: its share of the zone's area (by plant sites) over its cycle, a day at least. */
export function occupiedM2Days(zone: ZoneFacts, plantCount: number, cycleDays: number): number {
  const share = zone.capacity > 0 ? Math.min(1, plantCount / zone.capacity) : 1;
  return zone.areaM2 * share * Math.max(MIN_OCCUPIED_DAYS, cycleDays);
}

/**
 * The figures of a group of batches (docs/farm.md, "Analytics"). `areaDays` is the denominator of yield per m² per
 * year: for the farm, its whole growing area over the period; for a crop or recipe, the m²·days its harvested
 * batches occupied (zone area × share of its plant sites) over their whole cycle. `siteDays` is the farm's plant-
 * site days in the period, the denominator of utilisation.
 */
export function figures(
  group: readonly BatchFacts[],
  input: AnalyticsInput,
  areaDays: number | 'occupied',
  siteDays: number,
): FarmFigures {
  const { from, to } = input;
  const zones = new Map(input.zones.map((z) => [z.id, z]));
  let started = 0;
  let harvested = 0;
  let failed = 0;
  let yieldKg = 0;
  let cycleSum = 0;
  let occupied = 0;
  let usedSiteDays = 0;
  let readings = 0;
  let inTarget = 0;
  for (const b of group) {
    const zone = zones.get(b.zoneId);
    if (within(b.startedAt, from, to)) started += 1;
    const closedInPeriod = b.closedAt !== null && within(b.closedAt, from, to);
    if (closedInPeriod && b.status === 'harvested' && b.closedAt) {
      harvested += 1;
      yieldKg += b.yieldKg ?? 0;
      const cycle = (b.closedAt.getTime() - b.startedAt.getTime()) / DAY_MS;
      cycleSum += cycle;
      if (zone) occupied += occupiedM2Days(zone, b.plantCount, cycle);
    }
    if (closedInPeriod && b.status === 'failed') failed += 1;
    usedSiteDays += b.plantCount * overlapDays(b.startedAt, b.closedAt ?? to, from, to);
    const r = input.readings.get(b.id);
    if (r) {
      readings += r.count;
      inTarget += r.inTarget;
    }
  }
  const denominator = areaDays === 'occupied' ? occupied : areaDays;
  return {
    batchesStarted: started,
    harvested,
    failed,
    successRate: ratio(harvested, harvested + failed),
    yieldKg: round(yieldKg, 3),
    yieldPerM2PerYear: ratio(yieldKg * 365, denominator, 2),
    cycleDays: ratio(cycleSum, harvested, 2),
    utilisation: ratio(usedSiteDays, siteDays),
    readings,
    compliance: ratio(inTarget, readings),
  };
}

function groupBy<K>(batches: readonly BatchFacts[], key: (b: BatchFacts) => K): Map<K, BatchFacts[]> {
  const out = new Map<K, BatchFacts[]>();
  for (const b of batches) {
    const k = key(b);
    const list = out.get(k);
    if (list) list.push(b);
    else out.set(k, [b]);
  }
  return out;
}

/** A farm's analytics over a period: totals, by crop, by recipe, and utilisation per zone. */
export function farmAnalytics(input: AnalyticsInput, recipeNames: ReadonlyMap<string, string>) {
  const periodDays = (input.to.getTime() - input.from.getTime()) / DAY_MS;
  const area = input.zones.reduce((s, z) => s + z.areaM2, 0);
  const siteDays = input.zones.reduce((s, z) => s + z.capacity, 0) * periodDays;
  const totals = figures(input.batches, input, area * periodDays, siteDays);
  const byCrop = [...groupBy(input.batches, (b) => b.crop)]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([crop, group]) => ({ crop, ...figures(group, input, 'occupied', siteDays) }));
  const byRecipe = [...groupBy(input.batches, (b) => b.recipeId)]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([recipeId, group]) => ({
      recipeId,
      name: recipeNames.get(recipeId) ?? recipeId,
      ...figures(group, input, 'occupied', siteDays),
    }));
  const perZone = groupBy(input.batches, (b) => b.zoneId);
  const zones = input.zones.map((z) => ({
    zoneId: z.id,
    name: z.name,
    utilisation: figures(perZone.get(z.id) ?? [], input, 0, z.capacity * periodDays).utilisation,
  }));
  return { totals, byCrop, byRecipe, zones };
}
