import { type Db, executeRows } from '@rootline/db';
import { and, eq, gte, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { BatchFacts, ReadingCounts, ZoneFacts } from '../domain/analytics.js';
import { batches, harvests, readingDays, readings, readingTotals, recipes, zones } from './schema.js';

export async function zoneFacts(db: Db, farmId: string): Promise<ZoneFacts[]> {
  return db
    .select({ id: zones.id, name: zones.name, areaM2: zones.areaM2, capacity: zones.capacity })
    .from(zones)
    .where(eq(zones.farmId, farmId));
}

/** The farm's batches that overlap [from, to), with their harvest's yield. */
export async function batchFacts(db: Db, farmId: string, from: Date, to: Date): Promise<BatchFacts[]> {
  const rows = await db
    .select({
      id: batches.id,
      zoneId: batches.zoneId,
      recipeId: batches.recipeId,
      crop: batches.crop,
      plantCount: batches.plantCount,
      status: batches.status,
      startedAt: batches.startedAt,
      closedAt: batches.closedAt,
      yieldKg: harvests.yieldKg,
    })
    .from(batches)
    .leftJoin(harvests, eq(harvests.batchId, batches.id))
    .where(
      and(
        eq(batches.farmId, farmId),
        lt(batches.startedAt, to.toISOString()),
        or(isNull(batches.closedAt), gte(batches.closedAt, from.toISOString())),
      ),
    );
  return rows.map((r) => ({
    ...r,
    status: r.status as BatchFacts['status'],
    startedAt: new Date(r.startedAt),
    closedAt: r.closedAt ? new Date(r.closedAt) : null,
  }));
}

const DAY_MS = 86_400_000;

/**
 * Readings of the farm in [from, to) per batch: how many, and how many within target, from the rollups (ADR 159).
 * A batch whose readings all fall in the period counts its totals row; one that straddles a bound counts its
 * whole UTC days in the period and its raw readings of the partial days at either end (all raw when the period
 * holds no whole day). The same counts as a scan of the readings, at the cost of a few rows per batch.
 */
export async function readingCounts(db: Db, farmId: string, from: Date, to: Date): Promise<Map<string, ReadingCounts>> {
  let firstDay = Math.ceil(from.getTime() / DAY_MS) * DAY_MS;
  let endDay = Math.floor(to.getTime() / DAY_MS) * DAY_MS;
  if (firstDay >= endDay) firstDay = endDay = to.getTime();
  const [f, t, d0, d1] = [from, to, new Date(firstDay), new Date(endDay)].map((d) => d.toISOString());
  const rows = await executeRows<{ batchId: string; count: number; inTarget: number }>(
    db,
    sql`with batch as (
      select batch_id, readings, in_target, first_at >= ${f} and last_at < ${t} as inside
      from ${readingTotals} where farm_id = ${farmId} and first_at < ${t} and last_at >= ${f}
    ), parts as (
      select batch_id, readings, in_target from batch where inside
      union all
      select d.batch_id, d.readings, d.in_target from batch join ${readingDays} d using (batch_id)
      where not batch.inside and d.day >= ${d0} and d.day < ${d1}
      union all
      select r.batch_id, 1, r.in_target::int from batch join ${readings} r using (batch_id)
      where not batch.inside and r.at >= ${f} and r.at < ${d0}
      union all
      select r.batch_id, 1, r.in_target::int from batch join ${readings} r using (batch_id)
      where not batch.inside and r.at >= ${d1} and r.at < ${t}
    )
    select batch_id as "batchId", sum(readings)::int as count, sum(in_target)::int as "inTarget"
    from parts group by batch_id`,
  );
  return new Map(rows.map((r) => [r.batchId, { count: r.count, inTarget: r.inTarget }]));
}

export async function recipeNames(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: recipes.id, name: recipes.name, version: recipes.version })
    .from(recipes)
    .where(inArray(recipes.id, [...ids]));
  return new Map(rows.map((r) => [r.id, `${r.name} (v${r.version})`]));
}
