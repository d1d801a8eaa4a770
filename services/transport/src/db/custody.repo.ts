import type { Db } from '@rootline/db';
import { and, eq } from 'drizzle-orm';
import { correctedEvents, custody } from './schema.js';

export type CustodyRow = typeof custody.$inferSelect;

/** The users recorded as custodians of a plant or seed lot (by a seed lot's first event or an accepted handoff). */
export async function custodiansOf(db: Db, subject: string): Promise<string[]> {
  const rows = await db.selectDistinct({ userId: custody.userId }).from(custody).where(eq(custody.subject, subject));
  return rows.map((r) => r.userId);
}

/**
 * Makes the user the first custodian of a seed lot nobody holds yet (the handler of its first event); a lot
 * already held is left as it is (concurrent first events: one claim wins, by the unique first-event index).
 */
export async function claimSeedLot(
  db: Db,
  claim: { seedLotId: string; userId: string; eventId: string; since: string },
): Promise<void> {
  await db
    .insert(custody)
    .values({
      subject: claim.seedLotId,
      subjectKind: 'seed-lot',
      userId: claim.userId,
      via: 'first-event',
      eventId: claim.eventId,
      since: claim.since,
    })
    .onConflictDoNothing();
}

/** The custody rows an accepted handoff gave its recipient (none before acceptance). */
export async function acceptanceOf(db: Db, eventId: string, userId: string): Promise<CustodyRow[]> {
  return db
    .select()
    .from(custody)
    .where(and(eq(custody.eventId, eventId), eq(custody.userId, userId), eq(custody.via, 'handoff')));
}

/** Records an accepted handoff: one custody row per subject; a second acceptance changes nothing. */
export async function recordAcceptance(db: Db, rows: readonly Omit<CustodyRow, 'via'>[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insert(custody)
    .values(rows.map((r) => ({ ...r, via: 'handoff' as const })))
    .onConflictDoNothing();
}

/** Whether a later event corrects this one (a corrected handoff is replaced by its correction). */
export async function isCorrected(db: Db, eventId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: correctedEvents.id })
    .from(correctedEvents)
    .where(eq(correctedEvents.id, eventId))
    .limit(1);
  return row !== undefined;
}
