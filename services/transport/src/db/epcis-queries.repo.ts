import type { Db } from '@rootline/db';
import { and, asc, count, eq } from 'drizzle-orm';
import { epcisNamedQueries } from './schema.js';

export type NamedQueryRow = typeof epcisNamedQueries.$inferSelect;

/** Stores the query; false when the account already has one of that name. */
export async function insertNamedQuery(db: Db, row: NamedQueryRow): Promise<boolean> {
  const stored = await db
    .insert(epcisNamedQueries)
    .values(row)
    .onConflictDoNothing()
    .returning({ name: epcisNamedQueries.name });
  return stored.length > 0;
}

export async function findNamedQuery(db: Db, accountId: string, name: string): Promise<NamedQueryRow | undefined> {
  const [row] = await db
    .select()
    .from(epcisNamedQueries)
    .where(and(eq(epcisNamedQueries.accountId, accountId), eq(epcisNamedQueries.name, name)))
    .limit(1);
  return row;
}

/** The account's named queries, by name. */
export async function listNamedQueries(db: Db, accountId: string): Promise<NamedQueryRow[]> {
  return db
    .select()
    .from(epcisNamedQueries)
    .where(eq(epcisNamedQueries.accountId, accountId))
    .orderBy(asc(epcisNamedQueries.name));
}

export async function countNamedQueries(db: Db, accountId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(epcisNamedQueries)
    .where(eq(epcisNamedQueries.accountId, accountId));
  return row?.n ?? 0;
}

/** Deletes it; false when there was none. */
export async function deleteNamedQuery(db: Db, accountId: string, name: string): Promise<boolean> {
  const gone = await db
    .delete(epcisNamedQueries)
    .where(and(eq(epcisNamedQueries.accountId, accountId), eq(epcisNamedQueries.name, name)))
    .returning({ name: epcisNamedQueries.name });
  return gone.length > 0;
}
