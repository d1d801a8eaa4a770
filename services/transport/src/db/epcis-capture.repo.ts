import type { Db } from '@rootline/db';
import { and, desc, eq, lt, sql } from 'drizzle-orm';
import { epcisCapturedEvents, epcisCaptures, events } from './schema.js';

export type CaptureRow = typeof epcisCaptures.$inferSelect;
export type NewCaptureRow = typeof epcisCaptures.$inferInsert;

export async function insertCapture(db: Db, row: NewCaptureRow): Promise<CaptureRow> {
  const [stored] = await db.insert(epcisCaptures).values(row).returning();
  return stored as CaptureRow;
}

export async function findCapture(db: Db, id: string): Promise<CaptureRow | undefined> {
  const [row] = await db.select().from(epcisCaptures).where(eq(epcisCaptures.id, id)).limit(1);
  return row;
}

/** The account's latest capture jobs, newest first. */
export async function listCaptures(db: Db, accountId: string, limit: number): Promise<CaptureRow[]> {
  return db
    .select()
    .from(epcisCaptures)
    .where(eq(epcisCaptures.accountId, accountId))
    .orderBy(desc(epcisCaptures.createdAt), desc(epcisCaptures.id))
    .limit(limit);
}

/** Progress of a running job. */
export async function updateCapture(
  db: Db,
  id: string,
  change: Partial<Pick<CaptureRow, 'capturedCount' | 'errors' | 'success' | 'running' | 'finishedAt' | 'document'>>,
): Promise<void> {
  await db.update(epcisCaptures).set(change).where(eq(epcisCaptures.id, id));
}

/**
 * Jobs still marked running that started before `before`: their process ended without finishing them (a restart).
 * They end as failed with the given error; capturing the document again records only what is missing.
 */
export async function failStaleCaptures(
  db: Db,
  before: string,
  now: string,
  error: Record<string, unknown>,
): Promise<void> {
  const stale = await db
    .select({ id: epcisCaptures.id, errors: epcisCaptures.errors })
    .from(epcisCaptures)
    .where(and(eq(epcisCaptures.running, true), lt(epcisCaptures.createdAt, before)));
  for (const job of stale) {
    await db
      .update(epcisCaptures)
      .set({ running: false, success: false, finishedAt: now, document: null, errors: [...job.errors, error] })
      .where(and(eq(epcisCaptures.id, job.id), eq(epcisCaptures.running, true)));
  }
}

export type CapturedEventRow = typeof epcisCapturedEvents.$inferSelect;

export async function findCapturedEvent(db: Db, eventId: string): Promise<CapturedEventRow | undefined> {
  const [row] = await db.select().from(epcisCapturedEvents).where(eq(epcisCapturedEvents.eventId, eventId)).limit(1);
  return row;
}

/** Remembers the eventID a journey event was captured under (a second capture of it records nothing). */
export async function insertCapturedEvent(db: Db, row: CapturedEventRow): Promise<void> {
  await db.insert(epcisCapturedEvents).values(row).onConflictDoNothing();
}

/**
 * Forgets the eventID of a journey event that was not recorded (its recording failed), unless it was recorded after
 * all (a ledger intent the recovery stored).
 */
export async function forgetCapturedEvent(db: Db, eventId: string, transportEventId: string): Promise<void> {
  await db
    .delete(epcisCapturedEvents)
    .where(
      and(
        eq(epcisCapturedEvents.eventId, eventId),
        eq(epcisCapturedEvents.transportEventId, transportEventId),
        sql`not exists (select 1 from ${events} where ${events.id} = ${transportEventId})`,
      ),
    );
}

/** The eventID a journey event was captured under, if any. */
export async function capturedEventIdOf(db: Db, transportEventId: string): Promise<string | null> {
  const [row] = await db
    .select({ eventId: epcisCapturedEvents.eventId })
    .from(epcisCapturedEvents)
    .where(eq(epcisCapturedEvents.transportEventId, transportEventId))
    .limit(1);
  return row?.eventId ?? null;
}
