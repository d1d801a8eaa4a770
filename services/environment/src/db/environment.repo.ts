import type { EnvironmentData } from '@rootline/contracts';
import { type Db, executeRows } from '@rootline/db';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { CategoryTimes } from '../domain/current.js';
import { plantEnvironments, records } from './schema.js';

export type RecordRow = typeof records.$inferSelect;

export interface PlantEnvironmentRow {
  plantId: string;
  ownerId: string;
  species: string | null;
  commonName: string;
  current: EnvironmentData;
  categoryTimes: CategoryTimes;
  features: (number | null)[];
  healthScore: number | null;
  measures: (number | null)[];
  records: number;
  updatedAt: string;
}

/** Serialises writes to one plant's environment for the rest of the transaction (first records included). */
export async function lockPlant(tx: Db, plantId: string): Promise<void> {
  await executeRows(tx, sql`select pg_advisory_xact_lock(hashtext(${`environment:${plantId}`}))`);
}

export async function insertRecord(tx: Db, row: typeof records.$inferInsert): Promise<void> {
  await tx.insert(records).values(row);
}

export async function findRecord(db: Db, id: string): Promise<RecordRow | undefined> {
  const [row] = await db.select().from(records).where(eq(records.id, id));
  return row;
}

export async function findPlantEnvironment(db: Db, plantId: string): Promise<PlantEnvironmentRow | undefined> {
  const [row] = await db.select().from(plantEnvironments).where(eq(plantEnvironments.plantId, plantId));
  return row as PlantEnvironmentRow | undefined;
}

/** Writes a plant's row, stamped with the writing transaction's id (the similarity index's watermark). */
export async function savePlantEnvironment(tx: Db, row: PlantEnvironmentRow): Promise<void> {
  // An array with nulls, written as an ARRAY[...] expression (each element a parameter).
  const measures = sql`array[${sql.join(
    row.measures.map((v) => sql`${v}::float8`),
    sql`, `,
  )}]::float8[]`;
  const values = { ...row, measures, writtenBy: sql`(pg_current_xact_id()::text::bigint)` };
  await tx
    .insert(plantEnvironments)
    .values(values)
    .onConflictDoUpdate({ target: plantEnvironments.plantId, set: { ...values, plantId: undefined } });
}

/** One page of a plant's records, newest first, and how many it has. */
export async function listRecords(
  db: Db,
  plantId: string,
  page: number,
  limit: number,
): Promise<{ rows: RecordRow[]; total: number }> {
  const rows = await db
    .select()
    .from(records)
    .where(eq(records.plantId, plantId))
    .orderBy(desc(records.recordedAt), desc(records.id))
    .limit(limit)
    .offset((page - 1) * limit);
  const [total] = await db
    .select({ n: count() })
    .from(records)
    .where(and(eq(records.plantId, plantId)));
  return { rows, total: total?.n ?? 0 };
}

/** A row of the similarity index as read from the table. */
export interface IndexRow {
  plantId: string;
  species: string | null;
  features: (number | null)[];
}

/**
 * The rows written by transactions with an id at or above `watermark`, and the next watermark: the oldest
 * transaction still running when this statement's snapshot was taken. Every transaction below it has finished
 * and is visible here, so nothing written is ever missed; rows of transactions still running are read again
 * next time (ADR 056).
 */
export async function rowsWrittenSince(db: Db, watermark: number): Promise<{ rows: IndexRow[]; next: number }> {
  const result = await executeRows<{
    xmin: string | number;
    plant_id: string | null;
    species: string | null;
    features: (number | null)[] | null;
  }>(
    db,
    sql`
    with snap as (select pg_snapshot_xmin(pg_current_snapshot())::text::bigint as xmin)
    select snap.xmin, p.plant_id, p.species, p.features
    from snap left join ${plantEnvironments} p on p.written_by >= ${watermark}`,
  );
  const next = Number(result[0]?.xmin ?? watermark);
  const rows = result
    .filter((r) => r.plant_id !== null)
    .map((r) => ({ plantId: r.plant_id!, species: r.species, features: r.features! }));
  return { rows, next };
}
