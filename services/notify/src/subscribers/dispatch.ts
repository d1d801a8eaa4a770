import { type Notification, newId, realtimePublished } from '@rootline/contracts';
import type { Db } from '@rootline/db';
import type { Counter, EventMeta, ServiceContext } from '@rootline/host';
import { insertDeliveries } from '../db/deliveries.repo.js';
import { insertNotifications } from '../db/notifications.repo.js';
import { storedSwitchesOf } from '../db/preferences.repo.js';
import { usersWithPushSubscriptions } from '../db/push.repo.js';
import { recipientLocales } from '../db/recipients.repo.js';
import type { deliveries, notifications } from '../db/schema.js';
import { render, TEMPLATE_TYPE, type Template } from '../domain/messages.js';
import { channelsFor, effectivePreferences } from '../domain/preferences.js';

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
  const [notice] = await recordNotices(ctx, meta.tx, [
    { sourceId: meta.eventId, userId, template, data, publicUrl: meta.publicUrl },
  ]);
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

/** One person's notice of one source (an event id, or e.g. `digest:<week>`), for `recordNotices`. */
export interface NoticeInput {
  sourceId: string;
  userId: string;
  template: Template;
  data: Record<string, unknown>;
  /** The public address of the request that caused it (the event's call context); links start with it. */
  publicUrl?: string | undefined;
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
  const [notice] = await recordNotices(ctx, tx, [{ sourceId, userId, template, data }]);
  return notice ?? null;
}

/**
 * Records several notices in `tx` with a fixed number of statements whatever their number: one read of the
 * people's preferences, one of their languages, one of their push subscriptions (only when a notice may go by push), one INSERT of the
 * in-app rows and one of the delivery rows. Returns each notice's in-app notification (null when the person
 * turned in-app off), in the order given.
 */
export async function recordNotices(
  ctx: ServiceContext,
  tx: Db,
  inputs: readonly NoticeInput[],
): Promise<((Notification & { userId: string }) | null)[]> {
  if (inputs.length === 0) return [];
  const people = [...new Set(inputs.map((i) => i.userId))];
  const switches = await storedSwitchesOf(tx, people);
  // In-app texts are written once, in each person's language.
  const locales = await recipientLocales(tx, people);
  const now = ctx.clock.now();
  const planned = inputs.map((input) => {
    const type = TEMPLATE_TYPE[input.template.name];
    return { input, type, channels: channelsFor(type, effectivePreferences(switches.get(input.userId) ?? [])) };
  });
  const pushUsers = [...new Set(planned.filter((p) => p.channels.includes('push')).map((p) => p.input.userId))];
  const subscribed = pushUsers.length > 0 ? await usersWithPushSubscriptions(tx, pushUsers) : new Set<string>();
  const notices: ((Notification & { userId: string }) | null)[] = [];
  const notificationRows: (typeof notifications.$inferInsert)[] = [];
  const deliveryRows: (typeof deliveries.$inferInsert)[] = [];
  for (const { input, type, channels } of planned) {
    const { sourceId, userId, template, data, publicUrl } = input;
    let notice: (Notification & { userId: string }) | null = null;
    if (channels.includes('in-app')) {
      const m = render(template, undefined, locales.get(userId));
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
      notificationRows.push({ ...row, sourceEventId: sourceId });
      notice = { ...row, read: false, readAt: null };
    }
    notices.push(notice);
    for (const channel of channels.filter((c) => c !== 'in-app')) {
      // Push only to someone with a browser subscribed: no row to send to nobody.
      if (channel === 'push' && !subscribed.has(userId)) continue;
      deliveryRows.push({
        id: newId('dlv', now.getTime()),
        sourceEventId: sourceId,
        channel,
        userId,
        type,
        template: template.name,
        params: template.params,
        publicUrl: publicUrl ?? null,
        status: 'pending',
        nextAttemptAt: now.toISOString(),
        createdAt: now.toISOString(),
      });
    }
  }
  await insertNotifications(tx, notificationRows);
  await insertDeliveries(tx, deliveryRows);
  // In-app notifications are delivered by being recorded (email and push are counted when sent, jobs/sender.ts).
  if (notificationRows.length > 0)
    notificationsCounter(ctx).inc({ channel: 'in-app', outcome: 'sent' }, notificationRows.length);
  return notices;
}

/** Notifications by channel and outcome (`notifications_total`), shared with the sender. */
export function notificationsCounter(ctx: Pick<ServiceContext, 'metrics'>): Counter<'channel' | 'outcome'> {
  return ctx.metrics.counter({
    name: 'notifications_total',
    help: 'Notifications by channel and outcome: sent (in-app: recorded), retry (failed, tried again later) or failed (given up)',
    labelNames: ['channel', 'outcome'] as const,
  });
}
