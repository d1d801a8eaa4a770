import type { Db } from '@rootline/db';
import { eq, sql } from 'drizzle-orm';
import { recipients } from './schema.js';

export type Recipient = typeof recipients.$inferSelect;

/** Records (or refreshes) where a user is written to, as the latest account event says. */
export async function saveRecipient(db: Db, r: Recipient): Promise<void> {
  await db
    .insert(recipients)
    .values(r)
    .onConflictDoUpdate({
      target: recipients.userId,
      set: { email: sql`excluded.email`, name: sql`excluded.name`, updatedAt: sql`excluded.updated_at` },
    });
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
      set: { email: sql`excluded.email`, name: sql`excluded.name`, updatedAt: sql`excluded.updated_at` },
      setWhere: sql`${recipients.updatedAt} < excluded.updated_at`,
    });
}
