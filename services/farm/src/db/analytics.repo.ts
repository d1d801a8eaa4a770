import type { Db } from '@rootline/db';
import { and, eq, gte, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { BatchFacts, ReadingCounts, ZoneFacts } from '../domain/analytics.js';
import { batches, harvests, readings, recipes, zones } from './schema.js';

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

/** Readings of the farm in [from, to) per batch: how many, and how many within target. */
export async function readingCounts(db: Db, farmId: string, from: Date, to: Date): Promise<Map<string, ReadingCounts>> {
  const rows = await db
    .select({
      batchId: readings.batchId,
      count: sql<number>`count(*)::int`,
      inTarget: sql<number>`count(*) filter (where ${readings.inTarget})::int`,
    })
    .from(readings)
    .where(and(eq(readings.farmId, farmId), gte(readings.at, from.toISOString()), lt(readings.at, to.toISOString())))
    .groupBy(readings.batchId);
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
