import type { Farm, FarmZone, Location } from '@rootline/contracts';
import type { Db } from '@rootline/db';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { batches, farms, zones } from './schema.js';

export type FarmRow = typeof farms.$inferSelect;
export type ZoneRow = typeof zones.$inferSelect;

export async function insertFarm(db: Db, row: typeof farms.$inferInsert): Promise<void> {
  await db.insert(farms).values(row);
}

export async function findFarmRow(db: Db, id: string): Promise<FarmRow | undefined> {
  const [row] = await db.select().from(farms).where(eq(farms.id, id)).limit(1);
  return row;
}

/** The farm with its zone count and growing area. */
export async function findFarm(db: Db, id: string): Promise<Farm | undefined> {
  const row = await findFarmRow(db, id);
  if (!row) return undefined;
  const [agg] = await db
    .select({ n: sql<number>`count(*)::int`, area: sql<number>`coalesce(sum(${zones.areaM2}), 0)::float8` })
    .from(zones)
    .where(eq(zones.farmId, id));
  return {
    id: row.id,
    name: row.name,
    location: row.location as Location,
    floorAreaM2: row.floorAreaM2,
    levels: row.levels,
    lightingSystem: row.lightingSystem as Farm['lightingSystem'],
    climateSystem: row.climateSystem as Farm['climateSystem'],
    ownerId: row.ownerId,
    zoneCount: agg?.n ?? 0,
    growingAreaM2: agg?.area ?? 0,
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

/**
 * Stores a zone once: a retry naming the same id (same Idempotency-Key) stores nothing and resolves to the row
 * stored first, so it is answered that zone.
 */
export async function insertZone(db: Db, row: typeof zones.$inferInsert): Promise<ZoneRow> {
  const [inserted] = await db.insert(zones).values(row).onConflictDoNothing({ target: zones.id }).returning();
  return inserted ?? (await findZoneRow(db, row.id))!;
}

/** The zone, locked until the transaction ends when `lock` is set (capacity checks). */
export async function findZoneRow(db: Db, id: string, lock = false): Promise<ZoneRow | undefined> {
  const q = db.select().from(zones).where(eq(zones.id, id)).limit(1);
  const [row] = lock ? await q.for('update') : await q;
  return row;
}

/** Plants of the open batches of each zone. */
export async function plantsGrowing(db: Db, zoneIds: readonly string[]): Promise<Map<string, number>> {
  if (zoneIds.length === 0) return new Map();
  const rows = await db
    .select({ zoneId: batches.zoneId, n: sql<number>`coalesce(sum(${batches.plantCount}), 0)::int` })
    .from(batches)
    .where(and(inArray(batches.zoneId, [...zoneIds]), eq(batches.status, 'open')))
    .groupBy(batches.zoneId);
  return new Map(rows.map((r) => [r.zoneId, r.n]));
}

export function toZone(row: ZoneRow, growing: number): FarmZone {
  return {
    id: row.id,
    farmId: row.farmId,
    name: row.name,
    level: row.level,
    areaM2: row.areaM2,
    growingMethod: row.growingMethod as FarmZone['growingMethod'],
    capacity: row.capacity,
    plantsGrowing: growing,
    setpoints: row.setpoints as FarmZone['setpoints'],
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

export async function listZones(db: Db, farmId: string): Promise<FarmZone[]> {
  const rows = await db.select().from(zones).where(eq(zones.farmId, farmId)).orderBy(asc(zones.level), asc(zones.id));
  const growing = await plantsGrowing(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toZone(r, growing.get(r.id) ?? 0));
}

/** The names of the given farms, by id. */
export async function farmNames(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: farms.id, name: farms.name })
    .from(farms)
    .where(inArray(farms.id, [...ids]));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** The ids of the farms an account owns, newest first (an account owns a handful). */
export async function ownedFarmIds(db: Db, ownerId: string): Promise<string[]> {
  const rows = await db
    .select({ id: farms.id })
    .from(farms)
    .where(eq(farms.ownerId, ownerId))
    .orderBy(desc(farms.createdAt), desc(farms.id));
  return rows.map((r) => r.id);
}
