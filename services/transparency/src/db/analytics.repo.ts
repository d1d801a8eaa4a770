import { ANALYTICS_OTHER_KEY, type AnalyticsGrouping } from '@rootline/contracts';
import { anyOfTexts, type Db, executePrepared, insertFromJson } from '@rootline/db';
import { and, between, desc, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { RollupRow } from '../domain/analytics-report.js';
import {
  type AnalyticsEvent,
  factIncrements,
  mergeIncrements,
  type RollupIncrement,
  type RollupSeries,
  rollupIncrements,
  type TransportFact,
  transportFact,
} from '../domain/analytics-rollup.js';
import { analyticsDaily, analyticsTransportFacts } from './schema.js';

type Fact = Omit<TransportFact, 'corrects'> & { corrects?: string | null; inForce: boolean };

// The batch path's statements have fixed texts and run prepared, rows and id lists as one JSON parameter: drizzle's
// query building and a describe round trip per statement were the audit consumer's cost (pnpm bench audit-log).

/**
 * Stores the journey events' contributions and settles their corrections: a correction takes back what the event
 * it corrects added, once, if that event is still in force (in this batch or stored). Returns those take-backs.
 */
async function settleTransport(tx: Db, facts: Map<string, Fact>): Promise<RollupIncrement[]> {
  const takeBacks: RollupIncrement[] = [];
  const corrections = [...facts.values()].filter((f) => f.corrects);
  const elsewhere = [...new Set(corrections.map((c) => c.corrects as string).filter((id) => !facts.has(id)))];
  const stored = new Map<string, Fact>();
  if (elsewhere.length > 0) {
    const f = analyticsTransportFacts;
    const rows = await executePrepared<Fact>(
      tx,
      sql`select ${f.eventId} as "eventId", ${f.day}, ${f.kind}, ${f.mode}, ${f.handlerId} as "handlerId",
          ${f.distanceKm} as "distanceKm", ${f.kgCo2e} as "kgCo2e", ${f.inForce} as "inForce"
        from ${f} where ${f.eventId} = ${anyOfTexts(elsewhere)} and ${f.inForce} for update`,
    );
    for (const r of rows) stored.set(r.eventId, r);
  }
  const superseded: string[] = [];
  for (const c of corrections) {
    const old = facts.get(c.corrects as string) ?? stored.get(c.corrects as string);
    if (!old?.inForce) continue;
    old.inForce = false;
    takeBacks.push(...factIncrements(old, -1));
    if (stored.has(old.eventId)) superseded.push(old.eventId);
  }
  const rows = [...facts.values()].map((f) => ({
    eventId: f.eventId,
    day: f.day,
    kind: f.kind,
    mode: f.mode,
    handlerId: f.handlerId,
    distanceKm: f.distanceKm,
    kgCo2e: f.kgCo2e,
    inForce: f.inForce,
  }));
  await executePrepared(tx, sql`${insertFromJson(analyticsTransportFacts, rows)} on conflict do nothing`);
  if (superseded.length > 0) {
    await executePrepared(
      tx,
      sql`update ${analyticsTransportFacts} set in_force = false
        where ${analyticsTransportFacts.eventId} = ${anyOfTexts(superseded)}`,
    );
  }
  return takeBacks;
}

/**
 * Adds a batch of domain events to the analytics counters inside the caller's transaction: the increments are
 * summed in memory and written by one upsert (`count = count + excluded.count` …). Journey events also store
 * their contribution (one insert), and corrections read the event they replace. Each event must be applied once:
 * the caller's inbox and the audit log's de-duplication by event id see to that.
 */
export async function applyManyToAnalytics(tx: Db, events: readonly AnalyticsEvent[]): Promise<void> {
  const increments: RollupIncrement[] = [];
  const facts = new Map<string, Fact>();
  for (const event of events) {
    increments.push(...rollupIncrements(event));
    const fact = transportFact(event);
    if (fact) facts.set(fact.eventId, { ...fact, inForce: true });
  }
  if (facts.size > 0) increments.push(...(await settleTransport(tx, facts)));
  const rows = mergeIncrements(increments);
  if (rows.length === 0) return;
  const t = analyticsDaily;
  await executePrepared(
    tx,
    sql`${insertFromJson(
      t,
      rows.map((r) => ({
        series: r.series,
        day: r.day,
        d1: r.d1,
        d2: r.d2,
        d3: r.d3,
        count: r.count,
        distanceKm: r.distanceKm,
        kgCo2e: r.kgCo2e,
        yieldKg: r.yieldKg,
      })),
    )} on conflict (series, day, d1, d2, d3) do update set
        count = ${t.count} + excluded.count,
        distance_km = ${t.distanceKm} + excluded.distance_km,
        kg_co2e = ${t.kgCo2e} + excluded.kg_co2e,
        yield_kg = ${t.yieldKg} + excluded.yield_kg`,
  );
}

/** Adds one domain event to the analytics counters (see `applyManyToAnalytics`). */
export function applyToAnalytics(tx: Db, event: AnalyticsEvent): Promise<void> {
  return applyManyToAnalytics(tx, [event]);
}

export type Dimension = 'd1' | 'd2' | 'd3';

const UNITS: Record<AnalyticsGrouping, string> = { day: "'day'", week: "'week'", month: "'month'" };

export interface RollupQuery {
  series: readonly RollupSeries[];
  from: string;
  to: string;
  groupBy: AnalyticsGrouping;
  /** Dimensions kept in the answer (in this order); the others are summed over. */
  keys?: readonly Dimension[];
  /** Only rows whose d1 is this (a user, for series transport-user). */
  d1?: string;
  /**
   * Keep this many values of the first key, those with most events over the range, and sum the others under
   * ANALYTICS_OTHER_KEY (an empty value, unknown, is always kept): an open-ended dimension stays a small answer.
   */
  limitKeys?: number;
}

/** The values of a dimension with most events over the rows `where` selects, at most `limit`. */
async function topValues(db: Db, col: PgColumn, where: SQL | undefined, limit: number): Promise<string[]> {
  const rows = await db
    .select({ value: sql<string>`${col}` })
    .from(analyticsDaily)
    .where(and(where, ne(col, '')))
    .groupBy(col)
    .orderBy(desc(sql`sum(abs(${analyticsDaily.count}))`), col)
    .limit(limit);
  return rows.map((r) => r.value);
}

/** The counters of some series over a period of days, summed per `groupBy` period, oldest first. */
export async function readRollups(db: Db, q: RollupQuery): Promise<RollupRow[]> {
  const t = analyticsDaily;
  const keys = q.keys ?? [];
  const unit = UNITS[q.groupBy];
  const period = sql<string>`to_char(date_trunc(${sql.raw(unit)}, ${t.day}::timestamp), 'YYYY-MM-DD')`;
  const where = and(
    inArray(t.series, [...q.series]),
    between(t.day, q.from, q.to),
    q.d1 === undefined ? undefined : eq(t.d1, q.d1),
  );
  const keyCols: SQL[] = keys.map((k) => sql`${t[k]}`);
  const [first] = keys;
  if (first && q.limitKeys !== undefined) {
    const col = t[first];
    const kept = await topValues(db, col, where, q.limitKeys);
    keyCols[0] = sql`case when ${col} = '' or ${inArray(col, kept)} then ${col} else ${ANALYTICS_OTHER_KEY} end`;
  }
  // Grouped and ordered by position: the same expressions as selected, parameters included.
  const positions = (keys.length ? [1, 2, 3] : [1, 2]).map((n) => sql.raw(String(n)));
  const rows = await db
    .select({
      period,
      series: t.series,
      keys: keys.length ? sql<string[]>`array[${sql.join(keyCols, sql`, `)}]` : sql<string[]>`'{}'::text[]`,
      count: sql<string>`sum(${t.count})`,
      distanceKm: sql<number>`sum(${t.distanceKm})`,
      kgCo2e: sql<number>`sum(${t.kgCo2e})`,
      yieldKg: sql<number>`sum(${t.yieldKg})`,
    })
    .from(t)
    .where(where)
    .groupBy(...positions)
    .orderBy(...positions);
  return rows.map((r) => ({
    period: r.period,
    series: r.series as RollupSeries,
    keys: r.keys,
    count: Number(r.count),
    distanceKm: Number(r.distanceKm),
    kgCo2e: Number(r.kgCo2e),
    yieldKg: Number(r.yieldKg),
  }));
}

/** Users with most kg CO2e on their journeys over the days (series transport-user). */
export async function readTopEmitters(db: Db, from: string, to: string, limit: number) {
  const t = analyticsDaily;
  const kg = sql<number>`sum(${t.kgCo2e})`;
  const rows = await db
    .select({
      userId: t.d1,
      events: sql<string>`sum(${t.count})`,
      distanceKm: sql<number>`sum(${t.distanceKm})`,
      kgCo2e: kg,
    })
    .from(t)
    .where(and(eq(t.series, 'transport-user'), between(t.day, from, to)))
    .groupBy(t.d1)
    .having(sql`sum(${t.count}) > 0`)
    .orderBy(desc(kg), t.d1)
    .limit(limit);
  return rows.map((r) => ({
    userId: r.userId,
    events: Number(r.events),
    distanceKm: Number(r.distanceKm),
    kgCo2e: Number(r.kgCo2e),
  }));
}
