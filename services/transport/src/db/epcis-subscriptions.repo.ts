import { type Db, executeRows } from '@rootline/db';
import { and, asc, count, eq, sql } from 'drizzle-orm';
import { epcisNamedQueries, epcisSubscriptions } from './schema.js';

export type SubscriptionRow = typeof epcisSubscriptions.$inferSelect;

export async function insertSubscription(db: Db, row: SubscriptionRow): Promise<void> {
  await db.insert(epcisSubscriptions).values(row);
}

/** A named query's subscriptions, oldest first. */
export async function listSubscriptions(db: Db, accountId: string, queryName: string): Promise<SubscriptionRow[]> {
  return db
    .select()
    .from(epcisSubscriptions)
    .where(and(eq(epcisSubscriptions.accountId, accountId), eq(epcisSubscriptions.queryName, queryName)))
    .orderBy(asc(epcisSubscriptions.createdAt), asc(epcisSubscriptions.id));
}

export async function countSubscriptions(db: Db, accountId: string, queryName: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(epcisSubscriptions)
    .where(and(eq(epcisSubscriptions.accountId, accountId), eq(epcisSubscriptions.queryName, queryName)));
  return row?.n ?? 0;
}

export async function findSubscription(
  db: Db,
  accountId: string,
  queryName: string,
  id: string,
): Promise<SubscriptionRow | undefined> {
  const [row] = await db
    .select()
    .from(epcisSubscriptions)
    .where(
      and(
        eq(epcisSubscriptions.id, id),
        eq(epcisSubscriptions.accountId, accountId),
        eq(epcisSubscriptions.queryName, queryName),
      ),
    );
  return row;
}

/** Deletes one; undefined when there was none. */
export async function deleteSubscription(
  db: Db,
  accountId: string,
  queryName: string,
  id: string,
): Promise<SubscriptionRow | undefined> {
  const [row] = await db
    .delete(epcisSubscriptions)
    .where(
      and(
        eq(epcisSubscriptions.id, id),
        eq(epcisSubscriptions.accountId, accountId),
        eq(epcisSubscriptions.queryName, queryName),
      ),
    )
    .returning();
  return row;
}

/** Deletes every subscription of a named query (deleted with it); answers them, for their webhooks. */
export async function deleteSubscriptionsOf(db: Db, accountId: string, queryName: string): Promise<SubscriptionRow[]> {
  return db
    .delete(epcisSubscriptions)
    .where(and(eq(epcisSubscriptions.accountId, accountId), eq(epcisSubscriptions.queryName, queryName)))
    .returning();
}

/** Every streamed subscription with its named query's parameters, to match a new event against. */
export async function streamSubscriptions(db: Db): Promise<(SubscriptionRow & { query: Record<string, unknown> })[]> {
  const rows = await db
    .select({ sub: epcisSubscriptions, query: epcisNamedQueries.query })
    .from(epcisSubscriptions)
    .innerJoin(
      epcisNamedQueries,
      and(
        eq(epcisNamedQueries.accountId, epcisSubscriptions.accountId),
        eq(epcisNamedQueries.name, epcisSubscriptions.queryName),
      ),
    )
    .where(eq(epcisSubscriptions.stream, true))
    .orderBy(asc(epcisSubscriptions.createdAt));
  return rows.map((r) => ({ ...r.sub, query: r.query }));
}

/** The snapshot of the running transaction's next statement, as text (`pg_current_snapshot()`, ADR 321). */
export async function currentSnapshot(db: Db): Promise<string> {
  const [row] = await executeRows<{ s: string }>(db, sql`select pg_current_snapshot()::text as s`);
  return row!.s;
}

/**
 * Claims the scheduled subscription due the earliest at `now` (ADR 320), with its named query's parameters: locked
 * for the caller's transaction, skipping any another replica holds, so each due time is delivered once.
 */
export async function claimDueSubscription(
  db: Db,
  now: string,
): Promise<(SubscriptionRow & { query: Record<string, unknown> }) | undefined> {
  const [claimed] = await executeRows<{ id: string }>(
    db,
    sql`select s.id from ${epcisSubscriptions} s
      where s.next_due_at is not null and s.next_due_at <= ${now}::timestamptz
      order by s.next_due_at limit 1 for update of s skip locked`,
  );
  if (!claimed) return undefined;
  const [row] = await db
    .select({ sub: epcisSubscriptions, query: epcisNamedQueries.query })
    .from(epcisSubscriptions)
    .innerJoin(
      epcisNamedQueries,
      and(
        eq(epcisNamedQueries.accountId, epcisSubscriptions.accountId),
        eq(epcisNamedQueries.name, epcisSubscriptions.queryName),
      ),
    )
    .where(eq(epcisSubscriptions.id, claimed.id));
  return row ? { ...row.sub, query: row.query } : undefined;
}

/** After a scheduled delivery: when it is next due, and the snapshot and recordTime it has sent up to. */
export async function advanceSchedule(
  db: Db,
  id: string,
  next: { nextDueAt: string; snapshot: string; lastRecordTime: string },
): Promise<void> {
  await db.update(epcisSubscriptions).set(next).where(eq(epcisSubscriptions.id, id));
}
