import type { Db } from '@rootline/db';
import { and, count, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { pushSubscriptions } from './schema.js';

export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;

/** Stores a subscription; the same endpoint again replaces its keys and owner (a browser re-subscribed). */
export async function savePushSubscription(db: Db, row: PushSubscriptionRow): Promise<PushSubscriptionRow> {
  const [saved] = await db
    .insert(pushSubscriptions)
    .values(row)
    .onConflictDoUpdate({
      target: pushSubscriptions.endpoint,
      set: {
        userId: sql`excluded.user_id`,
        p256dh: sql`excluded.p256dh`,
        auth: sql`excluded.auth`,
        vapidPublicKey: sql`excluded.vapid_public_key`,
      },
    })
    .returning();
  return saved ?? row;
}

export async function userPushSubscriptions(db: Db, userId: string): Promise<PushSubscriptionRow[]> {
  return db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
}

/** Which of these people have at least one browser subscribed to push. */
export async function usersWithPushSubscriptions(db: Db, userIds: readonly string[]): Promise<Set<string>> {
  const rows = await db
    .selectDistinct({ userId: pushSubscriptions.userId })
    .from(pushSubscriptions)
    .where(inArray(pushSubscriptions.userId, [...userIds]));
  return new Set(rows.map((r) => r.userId));
}

export async function findPushSubscription(db: Db, id: string): Promise<PushSubscriptionRow | undefined> {
  const [row] = await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.id, id));
  return row;
}

export async function deletePushSubscription(db: Db, id: string, userId?: string): Promise<boolean> {
  const cond = userId
    ? and(eq(pushSubscriptions.id, id), eq(pushSubscriptions.userId, userId))
    : eq(pushSubscriptions.id, id);
  const rows = await db.delete(pushSubscriptions).where(cond).returning({ id: pushSubscriptions.id });
  return rows.length === 1;
}

/** How many subscriptions exist, and the VAPID public keys recorded with them (those made before are not named). */
export async function pushSubscriptionKeys(db: Db): Promise<{ subscriptions: number; publicKeys: string[] }> {
  const [total] = await db.select({ n: count() }).from(pushSubscriptions);
  const keys = await db
    .selectDistinct({ key: pushSubscriptions.vapidPublicKey })
    .from(pushSubscriptions)
    .where(isNotNull(pushSubscriptions.vapidPublicKey));
  return { subscriptions: total?.n ?? 0, publicKeys: keys.map((k) => k.key as string) };
}
