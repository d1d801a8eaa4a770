import type { Db } from '@rootline/db';
import { eq, inArray, sql } from 'drizzle-orm';
import { recipients } from './schema.js';

export type Recipient = typeof recipients.$inferSelect;

/**
 * Records (or refreshes) where a user is written to, as the latest account event says. An event without a
 * `locale` (recorded before accounts had one) leaves the known language as it is.
 */
export async function saveRecipient(
  db: Db,
  r: Omit<Recipient, 'locale'> & { locale?: string | null | undefined },
): Promise<void> {
  const known = r.locale !== undefined;
  await db
    .insert(recipients)
    .values({ ...r, locale: r.locale ?? null })
    .onConflictDoUpdate({
      target: recipients.userId,
      set: {
        email: sql`excluded.email`,
        name: sql`excluded.name`,
        ...(known ? { locale: sql`excluded.locale` } : {}),
        updatedAt: sql`excluded.updated_at`,
      },
    });
}

/** Records the language an account's owner chose; the account's address comes with its other events. */
export async function setRecipientLocale(db: Db, userId: string, locale: string | null): Promise<void> {
  await db.update(recipients).set({ locale }).where(eq(recipients.userId, userId));
}

/** The languages of some recipients, by user id (those notify does not know yet are left out). */
export async function recipientLocales(db: Db, userIds: readonly string[]): Promise<Map<string, string | null>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({ userId: recipients.userId, locale: recipients.locale })
    .from(recipients)
    .where(inArray(recipients.userId, [...userIds]));
  return new Map(rows.map((r) => [r.userId, r.locale]));
}

export async function findRecipient(db: Db, userId: string): Promise<Recipient | undefined> {
  const [row] = await db.select().from(recipients).where(eq(recipients.userId, userId));
  return row;
}

/** Records a recipient from the gateway's list unless an account event already gave a newer copy. */
export async function upsertRecipientIfNewer(db: Db, r: Recipient): Promise<void> {
  await db
    .insert(recipients)
    .values(r)
    .onConflictDoUpdate({
      target: recipients.userId,
      set: {
        email: sql`excluded.email`,
        name: sql`excluded.name`,
        locale: sql`excluded.locale`,
        updatedAt: sql`excluded.updated_at`,
      },
      setWhere: sql`${recipients.updatedAt} < excluded.updated_at`,
    });
}
