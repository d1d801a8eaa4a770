import { type Db, executeRows, insertFromJson } from '@rootline/db';
import { count, desc, eq, sql } from 'drizzle-orm';
import { deviations, readings } from './schema.js';

export type ReadingRow = typeof readings.$inferInsert & { fingerprint: string };
export type DeviationRow = Omit<typeof deviations.$inferInsert, 'id'>;

/**
 * Stores the readings not stored yet, in one INSERT (their values as one JSON parameter, one prepared statement at
 * any size): a reading already stored for its batch (same instant and fingerprint) is skipped, also when a
 * concurrent request stores it at the same moment. Resolves to the fingerprints stored by this call.
 */
export async function insertNewReadings(db: Db, rows: readonly ReadingRow[]): Promise<Set<string>> {
  const stored = await executeRows<{ fingerprint: string }>(
    db,
    sql`${insertFromJson(readings, rows)} on conflict do nothing returning ${readings.fingerprint}`,
  );
  return new Set(stored.map((r) => r.fingerprint));
}

export async function insertDeviations(db: Db, rows: readonly DeviationRow[]): Promise<void> {
  if (rows.length > 0) await db.execute(insertFromJson(deviations, rows));
}

export type StoredReading = typeof readings.$inferSelect;

/** The latest `limit` readings of a batch, oldest first, and how many it holds. */
export async function latestReadings(
  db: Db,
  batchId: string,
  limit: number,
): Promise<{ rows: StoredReading[]; total: number }> {
  const [rows, [c]] = await Promise.all([
    db.select().from(readings).where(eq(readings.batchId, batchId)).orderBy(desc(readings.at)).limit(limit),
    db.select({ n: count() }).from(readings).where(eq(readings.batchId, batchId)),
  ]);
  return { rows: rows.reverse(), total: Number(c?.n ?? 0) };
}

/** The latest `limit` deviations of a batch, newest first. */
export async function latestDeviations(db: Db, batchId: string, limit: number) {
  return db
    .select({
      at: deviations.at,
      metric: deviations.metric,
      value: deviations.value,
      min: deviations.min,
      max: deviations.max,
    })
    .from(deviations)
    .where(eq(deviations.batchId, batchId))
    .orderBy(desc(deviations.at), desc(deviations.id))
    .limit(limit);
}
