import { type Db, executePrepared, insertFromJson } from '@rootline/db';
import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { deliveries } from './schema.js';

export type DeliveryRow = typeof deliveries.$inferSelect;

/** NOTIFY channel: deliveries were recorded (wakes the senders of every instance when the transaction commits). */
export const DELIVERIES_CHANNEL = 'notify_deliveries';

/**
 * Records messages to send in one INSERT; a second one for the same event, channel and user is ignored. The rows
 * travel as one JSON parameter in a prepared statement: drizzle's multi-row VALUES cost more CPU to build than
 * the insert itself in a batch of registrations' notices (docs/perf/registration-throughput.md). On commit the senders
 * are woken (`DELIVERIES_CHANNEL`).
 */
export async function insertDeliveries(db: Db, rows: (typeof deliveries.$inferInsert)[]): Promise<void> {
  if (rows.length === 0) return;
  await executePrepared(db, sql`${insertFromJson(deliveries, rows)} on conflict do nothing`);
  await executePrepared(db, sql`select pg_notify(${DELIVERIES_CHANNEL}, '')`);
}

/**
 * Claims up to `limit` due deliveries until `until`: rows locked by another instance are skipped, and a claim
 * that outlives its holder (a crash mid-send) expires, so the row is sent again.
 */
export async function claimDue(db: Db, now: string, until: string, limit: number): Promise<DeliveryRow[]> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: deliveries.id })
      .from(deliveries)
      .where(
        and(
          eq(deliveries.status, 'pending'),
          lte(deliveries.nextAttemptAt, now),
          or(isNull(deliveries.claimedUntil), lte(deliveries.claimedUntil, now)),
        ),
      )
      .orderBy(asc(deliveries.nextAttemptAt))
      .limit(limit)
      .for('update', { skipLocked: true });
    if (due.length === 0) return [];
    return tx
      .update(deliveries)
      .set({ claimedUntil: until, attempts: sql`${deliveries.attempts} + 1` })
      .where(
        inArray(
          deliveries.id,
          due.map((d) => d.id),
        ),
      )
      .returning();
  });
}

export async function markSent(db: Db, id: string, at: string): Promise<void> {
  await db
    .update(deliveries)
    .set({ status: 'sent', sentAt: at, claimedUntil: null, lastError: null })
    .where(eq(deliveries.id, id));
}

/** A failed attempt: try again at `nextAt`, or give up (`failed`) when there is none. */
export async function markFailed(db: Db, id: string, error: string, nextAt: string | null): Promise<void> {
  await db
    .update(deliveries)
    .set(
      nextAt
        ? { claimedUntil: null, nextAttemptAt: nextAt, lastError: error }
        : { status: 'failed', claimedUntil: null, lastError: error },
    )
    .where(eq(deliveries.id, id));
}

/** Deliveries per status (pending, sent, failed), for the service's status and tests. */
export async function deliveryCounts(db: Db): Promise<Record<string, number>> {
  const rows = await db
    .select({ status: deliveries.status, n: sql<number>`count(*)::int` })
    .from(deliveries)
    .groupBy(deliveries.status);
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}
