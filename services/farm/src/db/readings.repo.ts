import { type Db, insertFromJson } from '@rootline/db';
import type { SQL } from 'drizzle-orm';
import { deviations, readings } from './schema.js';

export type ReadingRow = typeof readings.$inferInsert;
export type DeviationRow = Omit<typeof deviations.$inferInsert, 'id'>;

/** One INSERT of a request's readings, their values as one JSON parameter (one prepared statement at any size). */
export function readingsInsert(rows: readonly ReadingRow[]): SQL {
  return insertFromJson(readings, rows);
}

export function deviationsInsert(rows: readonly DeviationRow[]): SQL {
  return insertFromJson(deviations, rows);
}

/** Stores readings alone: one statement, atomic by itself. */
export async function storeReadings(db: Db, rows: readonly ReadingRow[]): Promise<void> {
  await db.execute(readingsInsert(rows));
}
