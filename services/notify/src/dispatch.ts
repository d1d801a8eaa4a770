import { type Notification, newId, realtimePublished } from '@rootline/contracts';
import type { Db } from '@rootline/db';
import type { EventMeta, ServiceContext } from '@rootline/host';
import { insertDelivery } from './db/deliveries.repo.js';
import { insertNotification } from './db/notifications.repo.js';
import { storedSwitches } from './db/preferences.repo.js';
import { userPushSubscriptions } from './db/push.repo.js';
import { render, TEMPLATE_TYPE, type Template } from './domain/messages.js';
import { channelsFor, effectivePreferences } from './domain/preferences.js';

/**
 * Turns one event into one person's notification, inside the event's inbox transaction: an in-app row and a
 * delivery row per outside channel (email, push) the person's preferences allow. Both are unique per source
 * event, so even outside the inbox (a replay, two notices of one event) each channel gets the event once.
 */
export async function notifyUser(
  ctx: ServiceContext,
  meta: EventMeta,
  userId: string,
  template: Template,
  data: Record<string, unknown>,
): Promise<void> {
  const notice = await recordNotice(ctx, meta.tx, meta.eventId, userId, template, data);
  // Once committed, every gateway replica hands it to the person's open sockets (room `user:<id>`).
  if (notice) meta.afterCommit(() => void publishLive(ctx, notice));
}

/** Broadcasts an in-app notification to the gateways' real-time rooms; a lost signal only loses the live copy. */
export async function publishLive(ctx: ServiceContext, n: Notification & { userId: string }): Promise<void> {
  const { userId, ...notification } = n;
  try {
    await ctx.bus.broadcast(realtimePublished.subject, {
      room: `user:${userId}`,
      event: 'notification',
      data: notification,
      sentAt: ctx.clock.now().toISOString(),
    });
  } catch (err) {
    ctx.log.warn({ err }, 'real-time notification not broadcast');
  }
}

/** As `notifyUser`, for a notice with another source than an event (the weekly digest: `digest:<week>`). */
export async function recordNotice(
  ctx: ServiceContext,
  tx: Db,
  sourceId: string,
  userId: string,
  template: Template,
  data: Record<string, unknown>,
): Promise<(Notification & { userId: string }) | null> {
  const type = TEMPLATE_TYPE[template.name];
  const channels = channelsFor(type, effectivePreferences(await storedSwitches(tx, userId)));
  const now = ctx.clock.now();
  let notice: (Notification & { userId: string }) | null = null;
  if (channels.includes('in-app')) {
    const m = render(template);
    const row = {
      id: newId('ntf', now.getTime()),
      userId,
      type,
      title: m.title,
      body: m.body,
      link: m.link,
      data,
      createdAt: now.toISOString(),
    };
    await insertNotification(tx, { ...row, sourceEventId: sourceId });
    notice = { ...row, read: false, readAt: null };
  }
  for (const channel of channels.filter((c) => c !== 'in-app')) {
    // Push only to someone with a browser subscribed: no row to send to nobody.
    if (channel === 'push' && (await userPushSubscriptions(tx, userId)).length === 0) continue;
    await insertDelivery(tx, {
      id: newId('dlv', now.getTime()),
      sourceEventId: sourceId,
      channel,
      userId,
      type,
      template: template.name,
      params: template.params,
      status: 'pending',
      nextAttemptAt: now.toISOString(),
      createdAt: now.toISOString(),
    });
  }
  return notice;
}
