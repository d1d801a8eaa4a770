import { type Db, fixedStatement, insertFromJson, insertFromJsonParameter } from '@rootline/db';
import { count, desc, eq, sql } from 'drizzle-orm';
import { deviations, readingDays, readings, readingTotals } from './schema.js';

export type ReadingRow = typeof readings.$inferInsert & { fingerprint: string };
export type DeviationRow = Omit<typeof deviations.$inferInsert, 'id'>;

/** The readings' columns as the ingest stores them: all of them, absent metrics null. */
const READING_KEYS = [
  'batchId',
  'farmId',
  'at',
  'temperatureC',
  'humidityPct',
  'co2Ppm',
  'ppfd',
  'ecMsCm',
  'ph',
  'waterTemperatureC',
  'dissolvedOxygenMgL',
  'inTarget',
  'fingerprint',
] as const satisfies readonly (keyof ReadingRow)[];

const newReadings = insertFromJsonParameter(readings, READING_KEYS, sql.placeholder('rows'));

/**
 * Stores the readings not stored yet, in one INSERT (their values as one JSON parameter): a reading already stored
 * for its batch (same instant and fingerprint) is skipped, also when a concurrent request stores it at the same
 * moment. The same statement adds the readings it stored to their batch's rollups (`reading_totals`,
 * `reading_days`; ADR 159): a concurrent statement for the same batch waits for the row and adds to it, so no
 * count is lost, and rows are taken in key order so two such statements cannot deadlock. Its text is built once
 * and it runs as a named prepared statement (ADR 163): each connection parses it once and PostgreSQL reuses its
 * plan, where building it per request and running it unprepared cost the farm service and PostgreSQL more than
 * storing the rows.
 */
const insertReadingsStatement = fixedStatement(
  'farm_insert_readings',
  sql`with stored as (
    ${newReadings.insert} on conflict do nothing
    returning ${readings.batchId}, ${readings.farmId}, ${readings.at}, ${readings.inTarget}, ${readings.fingerprint}
  ), totals as (
    insert into ${readingTotals} as t (batch_id, farm_id, readings, in_target, first_at, last_at)
    select batch_id, min(farm_id), count(*), count(*) filter (where in_target), min(at), max(at)
    from stored group by batch_id order by batch_id
    on conflict (batch_id) do update set readings = t.readings + excluded.readings,
      in_target = t.in_target + excluded.in_target,
      first_at = least(t.first_at, excluded.first_at), last_at = greatest(t.last_at, excluded.last_at)
  ), days as (
    insert into ${readingDays} as d (batch_id, day, readings, in_target)
    select batch_id, date_trunc('day', at, 'UTC') as day, count(*), count(*) filter (where in_target)
    from stored group by batch_id, day order by batch_id, day
    on conflict (batch_id, day) do update set readings = d.readings + excluded.readings,
      in_target = d.in_target + excluded.in_target
  )
  select fingerprint from stored`,
);

/** Stores the readings not stored yet and adds them to the rollups (above); resolves to the fingerprints stored. */
export async function insertNewReadings(db: Db, rows: readonly ReadingRow[]): Promise<Set<string>> {
  const stored = await insertReadingsStatement<{ fingerprint: string }>(db, { rows: newReadings.encode(rows) });
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
