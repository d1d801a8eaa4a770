import type { Db } from '@rootline/db';
import { and, count, desc, eq, inArray } from 'drizzle-orm';
import { seedLotHandoffs } from './schema.js';

export type SeedHandoffRow = typeof seedLotHandoffs.$inferSelect;
export type NewSeedHandoffRow = typeof seedLotHandoffs.$inferInsert;

/** Inserts a handoff; undefined when one of that peer, id and direction exists already (nothing is written). */
export async function insertHandoff(db: Db, row: NewSeedHandoffRow): Promise<SeedHandoffRow | undefined> {
  const [created] = await db.insert(seedLotHandoffs).values(row).onConflictDoNothing().returning();
  return created;
}

export async function findHandoff(
  db: Db,
  key: { peer: string; handoffId: string; direction: 'outgoing' | 'incoming' },
): Promise<SeedHandoffRow | undefined> {
  const [row] = await db
    .select()
    .from(seedLotHandoffs)
    .where(
      and(
        eq(seedLotHandoffs.peer, key.peer),
        eq(seedLotHandoffs.handoffId, key.handoffId),
        eq(seedLotHandoffs.direction, key.direction),
      ),
    )
    .limit(1);
  return row;
}

/** An outgoing handoff by its id alone (its peer is unknown to a retry that only has the id). */
export async function findOutgoing(db: Db, handoffId: string): Promise<SeedHandoffRow | undefined> {
  const [row] = await db
    .select()
    .from(seedLotHandoffs)
    .where(and(eq(seedLotHandoffs.handoffId, handoffId), eq(seedLotHandoffs.direction, 'outgoing')))
    .limit(1);
  return row;
}

export async function setHandoffEvent(
  db: Db,
  row: Pick<SeedHandoffRow, 'peer' | 'handoffId' | 'direction'>,
  event: { eventId: string; transactionId: string },
): Promise<SeedHandoffRow> {
  const [updated] = await db
    .update(seedLotHandoffs)
    .set(event)
    .where(
      and(
        eq(seedLotHandoffs.peer, row.peer),
        eq(seedLotHandoffs.handoffId, row.handoffId),
        eq(seedLotHandoffs.direction, row.direction),
      ),
    )
    .returning();
  return updated as SeedHandoffRow;
}

/** One page of a lot's handoffs, newest first, and their count. */
export async function listHandoffs(
  db: Db,
  seedLotId: string,
  offset: number,
  limit: number,
): Promise<{ rows: SeedHandoffRow[]; total: number }> {
  const w = eq(seedLotHandoffs.seedLotId, seedLotId);
  const [rows, counted] = await Promise.all([
    db
      .select()
      .from(seedLotHandoffs)
      .where(w)
      .orderBy(desc(seedLotHandoffs.createdAt), desc(seedLotHandoffs.handoffId))
      .offset(offset)
      .limit(limit),
    db.select({ n: count() }).from(seedLotHandoffs).where(w),
  ]);
  return { rows, total: counted[0]?.n ?? 0 };
}

/** The incoming handoffs the lots named were received by, by lot. */
export async function incomingOf(db: Db, seedLotIds: readonly string[]): Promise<Map<string, SeedHandoffRow>> {
  if (seedLotIds.length === 0) return new Map();
  const rows = await db
    .select()
    .from(seedLotHandoffs)
    .where(and(inArray(seedLotHandoffs.seedLotId, [...seedLotIds]), eq(seedLotHandoffs.direction, 'incoming')));
  return new Map(rows.map((r) => [r.seedLotId, r]));
}
