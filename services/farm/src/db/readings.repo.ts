import { type Db, executeRows, insertFromJson } from '@rootline/db';
import { sql } from 'drizzle-orm';
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
