import type { LineageSeedLot, PlantName } from '@rootline/contracts';
import type { Db } from '@rootline/db';
import { and, count, desc, eq, inArray, isNull, type SQL } from 'drizzle-orm';
import { germinationTests, plants, seedLotQuantityChanges, seedLots } from './schema.js';

export type SeedLotRow = typeof seedLots.$inferSelect;
export type NewSeedLotRow = typeof seedLots.$inferInsert;
export type GerminationTestRow = typeof germinationTests.$inferSelect;
export type QuantityChangeRow = typeof seedLotQuantityChanges.$inferInsert;

/** Most lots of one owner the `lowViability` filter reads to compute their viability (docs/seed-lots.md). */
export const LOW_VIABILITY_SCAN_MAX = 5000;

export async function insertSeedLot(db: Db, row: NewSeedLotRow): Promise<SeedLotRow> {
  const [created] = await db.insert(seedLots).values(row).returning();
  return created as SeedLotRow;
}

export async function insertQuantityChange(db: Db, row: QuantityChangeRow): Promise<void> {
  await db.insert(seedLotQuantityChanges).values(row);
}

/** A lot by id; `forUpdate` locks its row for the transaction's change. */
export async function findSeedLot(db: Db, id: string, forUpdate = false): Promise<SeedLotRow | undefined> {
  const q = db.select().from(seedLots).where(eq(seedLots.id, id)).limit(1);
  const [row] = forUpdate ? await q.for('update') : await q;
  return row;
}

export async function updateSeedLot(db: Db, id: string, change: Partial<NewSeedLotRow>): Promise<SeedLotRow> {
  const [row] = await db.update(seedLots).set(change).where(eq(seedLots.id, id)).returning();
  return row as SeedLotRow;
}

/**
 * Takes `amount` out of a lot whose row the transaction holds locked (the caller checked it holds that much): the lot's
 * new quantity and the change that explains it (`reason`, `note` naming the loan or handoff). Answers what is left.
 */
export async function takeFromSeedLot(
  db: Db,
  lot: SeedLotRow,
  take: { amount: number; reason: string; note: string; at: string; by: string },
): Promise<number> {
  const left = lot.quantityAmount - take.amount;
  await updateSeedLot(db, lot.id, { quantityAmount: left, updatedAt: take.at });
  await insertQuantityChange(db, {
    seedLotId: lot.id,
    reason: take.reason,
    amount: left,
    delta: -take.amount,
    unit: lot.quantityUnit,
    note: take.note,
    at: take.at,
    by: take.by,
  });
  return left;
}

export interface SeedLotFilter {
  ownerId: string;
  cropKey?: string;
  harvestYear?: number;
}

function listed(f: SeedLotFilter): SQL | undefined {
  return and(
    eq(seedLots.ownerId, f.ownerId),
    isNull(seedLots.discardedAt),
    f.cropKey === undefined ? undefined : eq(seedLots.cropKey, f.cropKey),
    f.harvestYear === undefined ? undefined : eq(seedLots.harvestYear, f.harvestYear),
  );
}

/** One page of an owner's lots that are not discarded, newest harvest first (ties: newest id), and their count. */
export async function listSeedLots(
  db: Db,
  f: SeedLotFilter,
  offset: number,
  limit: number,
): Promise<{ rows: SeedLotRow[]; total: number }> {
  const where = listed(f);
  const [rows, counted] = await Promise.all([
    db
      .select()
      .from(seedLots)
      .where(where)
      .orderBy(desc(seedLots.harvestYear), desc(seedLots.id))
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(seedLots).where(where),
  ]);
  return { rows, total: Number(counted[0]?.total ?? 0) };
}

/** Every listed lot of an owner in list order, up to `LOW_VIABILITY_SCAN_MAX` (viability is computed, not stored). */
export async function allSeedLots(db: Db, f: SeedLotFilter): Promise<SeedLotRow[]> {
  return db
    .select()
    .from(seedLots)
    .where(listed(f))
    .orderBy(desc(seedLots.harvestYear), desc(seedLots.id))
    .limit(LOW_VIABILITY_SCAN_MAX);
}

/** The latest germination test of each lot (by day read, then the latest recorded), by lot id. */
export async function latestTests(db: Db, lotIds: readonly string[]): Promise<Map<string, GerminationTestRow>> {
  if (lotIds.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([germinationTests.seedLotId])
    .from(germinationTests)
    .where(inArray(germinationTests.seedLotId, [...lotIds]))
    .orderBy(germinationTests.seedLotId, desc(germinationTests.testedOn), desc(germinationTests.id));
  return new Map(rows.map((r) => [r.seedLotId, r]));
}

export async function insertGerminationTest(db: Db, row: GerminationTestRow): Promise<GerminationTestRow> {
  const [created] = await db.insert(germinationTests).values(row).returning();
  return created as GerminationTestRow;
}

export async function findGerminationTest(db: Db, id: string): Promise<GerminationTestRow | undefined> {
  const [row] = await db.select().from(germinationTests).where(eq(germinationTests.id, id)).limit(1);
  return row;
}

/** One page of a lot's tests, latest first, and their count. */
export async function listGerminationTests(
  db: Db,
  lotId: string,
  offset: number,
  limit: number,
): Promise<{ rows: GerminationTestRow[]; total: number }> {
  const where = eq(germinationTests.seedLotId, lotId);
  const [rows, counted] = await Promise.all([
    db
      .select()
      .from(germinationTests)
      .where(where)
      .orderBy(desc(germinationTests.testedOn), desc(germinationTests.id))
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(germinationTests).where(where),
  ]);
  return { rows, total: Number(counted[0]?.total ?? 0) };
}

/** The ids among `ids` that name no plant. */
export async function missingPlants(db: Db, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const found = await db
    .select({ id: plants.id })
    .from(plants)
    .where(inArray(plants.id, [...ids]));
  const seen = new Set(found.map((r) => r.id));
  return ids.filter((id) => !seen.has(id));
}

/** The lots named by plants of a lineage, in their lineage shape, by id. */
export async function findLineageSeedLots(db: Db, ids: readonly string[]): Promise<Map<string, LineageSeedLot>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({
      id: seedLots.id,
      crop: seedLots.crop,
      variety: seedLots.variety,
      harvestYear: seedLots.harvestYear,
      parentPlantIds: seedLots.parentPlantIds,
    })
    .from(seedLots)
    .where(inArray(seedLots.id, [...ids]));
  return new Map(rows.map((r) => [r.id, r]));
}

/** The plants of `ids` with their names, in the order of `ids` (an id no plant has is left out). */
export async function plantNames(db: Db, ids: readonly string[]): Promise<PlantName[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: plants.id, commonName: plants.commonName, scientificName: plants.scientificName })
    .from(plants)
    .where(inArray(plants.id, [...new Set(ids)]));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const p = byId.get(id);
    return p ? [{ id: p.id, commonName: p.commonName, scientificName: p.scientificName }] : [];
  });
}
