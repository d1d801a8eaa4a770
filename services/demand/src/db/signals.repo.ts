import type { Signal } from '@rootline/contracts';
import type { Db } from '@rootline/db';
import { and, asc, eq, sql } from 'drizzle-orm';
import { demandHistory, signals } from './schema.js';

export async function insertSignal(db: Db, signal: Signal, requestedBy: string): Promise<void> {
  await db.insert(signals).values({
    id: signal.id,
    requestedBy,
    regionKey: signal.regionKey,
    result: signal,
    createdAt: signal.createdAt,
  });
}

export async function findSignal(db: Db, id: string): Promise<Signal | undefined> {
  const [row] = await db.select({ result: signals.result }).from(signals).where(eq(signals.id, id));
  return row?.result as Signal | undefined;
}

/** Records the observed weekly demand per crop of a region; a later signal for the same week replaces it. */
export async function recordHistory(
  db: Db,
  rows: { crop: string; regionKey: string; weekStart: string; demandKg: number; signalId: string }[],
): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insert(demandHistory)
    .values(rows)
    .onConflictDoUpdate({
      target: [demandHistory.crop, demandHistory.regionKey, demandHistory.weekStart],
      set: { demandKg: sql`excluded.demand_kg`, signalId: sql`excluded.signal_id` },
    });
}

/** The recorded weekly demand of a crop in a region, oldest week first. */
export async function historyOf(db: Db, crop: string, regionKey: string) {
  return db
    .select({ weekStart: demandHistory.weekStart, demandKg: demandHistory.demandKg })
    .from(demandHistory)
    .where(and(eq(demandHistory.crop, crop), eq(demandHistory.regionKey, regionKey)))
    .orderBy(asc(demandHistory.weekStart));
}

/** Stores imported weeks of demand history; a week a signal (or an earlier import) recorded is kept. */
export async function importHistory(
  db: Db,
  rows: { crop: string; regionKey: string; weekStart: string; demandKg: number; signalId: string }[],
): Promise<number> {
  if (rows.length === 0) return 0;
  const stored = await db
    .insert(demandHistory)
    .values(rows)
    .onConflictDoNothing({ target: [demandHistory.crop, demandHistory.regionKey, demandHistory.weekStart] })
    .returning({ week: demandHistory.weekStart });
  return stored.length;
}
