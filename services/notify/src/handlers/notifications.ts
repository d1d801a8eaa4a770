import {
  isOwnerOrAdmin,
  notificationDelete,
  notificationList,
  notificationMarkAllRead,
  notificationMarkRead,
  notificationUnreadCount,
  pageOf,
  pageWindow,
} from '@rootline/contracts';
import { actingUser } from '@rootline/domain';
import { handle, notFound, type ServiceContext } from '@rootline/host';
import {
  deleteNotification,
  findNotification,
  markAllRead,
  markRead,
  notificationView,
  unreadCount,
  userNotifications,
} from '../db/notifications.repo.js';

export const listNotifications = (ctx: ServiceContext) =>
  handle(notificationList, async (input, caller) => {
    const { id } = actingUser(caller);
    const { page, limit, offset } = pageWindow(input);
    const { rows, total } = await userNotifications(ctx.db, id, input.unread, offset, limit);
    return pageOf(rows.map(notificationView), page, limit, total);
  });

export const countUnread = (ctx: ServiceContext) =>
  handle(notificationUnreadCount, async (_input, caller) => ({
    unread: await unreadCount(ctx.db, actingUser(caller).id),
  }));

/** Someone else's notification is NOT_FOUND to the caller (ADMINs may act on any), so ids reveal nothing. */
async function ownNotification(ctx: ServiceContext, id: string, caller: Parameters<typeof actingUser>[0]) {
  const actor = actingUser(caller);
  const row = await findNotification(ctx.db, id);
  if (!row || !isOwnerOrAdmin(actor, row.userId)) throw notFound('Notification', id);
  return row;
}

export const markOneRead = (ctx: ServiceContext) =>
  handle(notificationMarkRead, async ({ notificationId }, caller) => {
    await ownNotification(ctx, notificationId, caller);
    const row = await markRead(ctx.db, notificationId, ctx.clock.now().toISOString());
    if (!row) throw notFound('Notification', notificationId);
    return notificationView(row);
  });

export const markEveryRead = (ctx: ServiceContext) =>
  handle(notificationMarkAllRead, async (_input, caller) => ({
    marked: await markAllRead(ctx.db, actingUser(caller).id, ctx.clock.now().toISOString()),
  }));

export const removeNotification = (ctx: ServiceContext) =>
  handle(notificationDelete, async ({ notificationId }, caller) => {
    await ownNotification(ctx, notificationId, caller);
    return { id: notificationId, deleted: await deleteNotification(ctx.db, notificationId) };
  });
