import type { Db } from '@rootline/db';
import { and, asc, between, count, desc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import { matches, supplies } from './schema.js';

export type SupplyRow = typeof supplies.$inferSelect;
export type MatchRow = typeof matches.$inferSelect;

export function supplyView(r: SupplyRow) {
  return {
    id: r.id,
    growerId: r.growerId,
    crop: r.crop,
    quantity: r.quantity,
    unit: r.unit,
    quantityKg: r.quantityKg,
    matchedKg: r.matchedKg,
    window: { from: r.windowFrom, to: r.windowTo },
    price: r.price,
    currency: r.currency,
    location: {
      latitude: r.latitude,
      longitude: r.longitude,
      ...(r.city === null ? {} : { city: r.city }),
      ...(r.country === null ? {} : { country: r.country }),
    },
    organic: r.organic,
    createdAt: new Date(r.createdAt).toISOString(),
  };
}

export function matchView(r: MatchRow) {
  return { ...r, createdAt: new Date(r.createdAt).toISOString() };
}

/** Stores a supply; one with the same id (a retried request) is kept as it was (`created` false). */
export async function insertSupply(db: Db, row: SupplyRow): Promise<{ row: SupplyRow; created: boolean }> {
  const [created] = await db.insert(supplies).values(row).onConflictDoNothing().returning();
  if (created) return { row: created, created: true };
  const [existing] = await db.select().from(supplies).where(eq(supplies.id, row.id));
  return { row: existing as SupplyRow, created: false };
}

/**
 * Supplies whose window meets [from, to] (dates as `YYYY-MM-DD`) in a latitude range or a named country (and city);
 * the caller keeps those within the exact distance.
 */
export async function suppliesIn(
  db: Db,
  region: { minLat: number; maxLat: number } | { country: string; city?: string | undefined },
  from: string,
  to: string,
): Promise<SupplyRow[]> {
  const place =
    'minLat' in region
      ? between(supplies.latitude, region.minLat, region.maxLat)
      : and(
          sql`upper(trim(${supplies.country})) = ${region.country.trim().toUpperCase()}`,
          region.city === undefined
            ? undefined
            : sql`lower(trim(${supplies.city})) = ${region.city.trim().toLowerCase()}`,
        );
  return db
    .select()
    .from(supplies)
    .where(and(place, lte(supplies.windowFrom, to), gte(supplies.windowTo, from)));
}

/** The grower's supplies (every grower's with `growerId` undefined) with kilograms left, locked, oldest first. */
export async function lockOpenSupplies(db: Db, growerId: string | undefined, crop: string | undefined) {
  return db
    .select()
    .from(supplies)
    .where(
      and(
        growerId === undefined ? undefined : eq(supplies.growerId, growerId),
        crop === undefined ? undefined : eq(supplies.crop, crop),
        sql`${supplies.matchedKg} < ${supplies.quantityKg} - 1e-9`,
      ),
    )
    .orderBy(asc(supplies.createdAt), asc(supplies.id))
    .for('update');
}

/** Every match of the crops, with the window of the supply behind it. */
export async function matchesOfCrops(db: Db, crops: string[]) {
  if (crops.length === 0) return [];
  return db
    .select({ match: matches, from: supplies.windowFrom, to: supplies.windowTo })
    .from(matches)
    .innerJoin(supplies, eq(supplies.id, matches.supplyId))
    .where(inArray(matches.crop, crops));
}

export async function insertMatches(db: Db, rows: MatchRow[]): Promise<MatchRow[]> {
  if (rows.length === 0) return [];
  return db.insert(matches).values(rows).onConflictDoNothing().returning();
}

export async function addMatched(db: Db, supplyId: string, kg: number): Promise<void> {
  await db
    .update(supplies)
    .set({ matchedKg: sql`${supplies.matchedKg} + ${kg}` })
    .where(eq(supplies.id, supplyId));
}

export async function matchesOfSupplies(db: Db, supplyIds: string[]): Promise<MatchRow[]> {
  if (supplyIds.length === 0) return [];
  return db
    .select()
    .from(matches)
    .where(inArray(matches.supplyId, supplyIds))
    .orderBy(asc(matches.supplyId), asc(matches.distanceKm), asc(matches.id));
}

/** Ids of a grower's supplies (every grower's with `growerId` undefined), optionally of one crop. */
export async function supplyIdsOf(db: Db, growerId: string | undefined, crop: string | undefined): Promise<string[]> {
  const rows = await db
    .select({ id: supplies.id })
    .from(supplies)
    .where(
      and(
        growerId === undefined ? undefined : eq(supplies.growerId, growerId),
        crop === undefined ? undefined : eq(supplies.crop, crop),
      ),
    );
  return rows.map((r) => r.id);
}

export async function findSupply(db: Db, id: string): Promise<SupplyRow | undefined> {
  const [row] = await db.select().from(supplies).where(eq(supplies.id, id));
  return row;
}

/** A page of a grower's supplies (every grower's with `growerId` undefined), newest first, and how many there are. */
export async function listSupplies(db: Db, growerId: string | undefined, offset: number, limit: number) {
  const cond = growerId === undefined ? undefined : eq(supplies.growerId, growerId);
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(supplies)
      .where(cond)
      .orderBy(desc(supplies.createdAt), desc(supplies.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(supplies).where(cond),
  ]);
  return { rows, total: counted?.n ?? 0 };
}

/** A page of one supply's matches, nearest household first, and how many there are. */
export async function listMatchesOfSupply(db: Db, supplyId: string, offset: number, limit: number) {
  const cond = eq(matches.supplyId, supplyId);
  const [rows, [counted]] = await Promise.all([
    db.select().from(matches).where(cond).orderBy(asc(matches.distanceKm), asc(matches.id)).limit(limit).offset(offset),
    db.select({ n: count() }).from(matches).where(cond),
  ]);
  return { rows, total: counted?.n ?? 0 };
}
