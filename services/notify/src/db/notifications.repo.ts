import type { Notification, NotificationType } from '@rootline/contracts';
import { type Db, executePrepared, insertFromJson } from '@rootline/db';
import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import { notifications } from './schema.js';

export type NotificationRow = typeof notifications.$inferSelect;

export function notificationView(r: NotificationRow): Notification {
  return {
    id: r.id,
    type: r.type as NotificationType,
    title: r.title,
    body: r.body,
    link: r.link,
    data: r.data as Record<string, unknown>,
    read: r.readAt !== null,
    readAt: r.readAt === null ? null : new Date(r.readAt).toISOString(),
    createdAt: new Date(r.createdAt).toISOString(),
  };
}

/**
 * Adds in-app notifications in one INSERT; a second one for the same event, user and type is ignored. One JSON
 * parameter in a prepared statement, as `insertDeliveries`.
 */
export async function insertNotifications(db: Db, rows: (typeof notifications.$inferInsert)[]): Promise<void> {
  if (rows.length > 0) await executePrepared(db, sql`${insertFromJson(notifications, rows)} on conflict do nothing`);
}

export async function userNotifications(db: Db, userId: string, unread: boolean, offset: number, limit: number) {
  const cond = unread
    ? and(eq(notifications.userId, userId), isNull(notifications.readAt))
    : eq(notifications.userId, userId);
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(notifications)
      .where(cond)
      .orderBy(desc(notifications.createdAt), desc(notifications.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(notifications).where(cond),
  ]);
  return { rows, total: counted?.n ?? 0 };
}

export async function unreadCount(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return row?.n ?? 0;
}

export async function findNotification(db: Db, id: string): Promise<NotificationRow | undefined> {
  const [row] = await db.select().from(notifications).where(eq(notifications.id, id));
  return row;
}

/** Marks one read (keeping the first read time); the row as it is afterwards. */
export async function markRead(db: Db, id: string, at: string): Promise<NotificationRow | undefined> {
  await db
    .update(notifications)
    .set({ readAt: at })
    .where(and(eq(notifications.id, id), isNull(notifications.readAt)));
  return findNotification(db, id);
}

export async function markAllRead(db: Db, userId: string, at: string): Promise<number> {
  const rows = await db
    .update(notifications)
    .set({ readAt: at })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)))
    .returning({ id: notifications.id });
  return rows.length;
}

export async function deleteNotification(db: Db, id: string): Promise<boolean> {
  const rows = await db.delete(notifications).where(eq(notifications.id, id)).returning({ id: notifications.id });
  return rows.length === 1;
}
