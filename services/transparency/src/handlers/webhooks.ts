import {
  AppError,
  paginate,
  publicEvents,
  webhookCreate,
  webhookDelete,
  webhookDeliveryList,
  webhookList,
} from '@rootline/contracts';
import { actingUser, assertOwnerOrAdmin, handle, notFound, type ServiceContext } from '@rootline/host';
import { deleteWebhook, findWebhook, insertWebhook, listDeliveries, listWebhooks } from '../db/webhooks.repo.js';
import { checkWebhookUrl } from '../webhook-sender.js';

/** transparency.webhook.create: a webhook owned by the caller, for public kinds, to an address it may reach. */
export const createWebhook = (ctx: ServiceContext, allowPrivate: boolean) =>
  handle(webhookCreate, async (input, call) => {
    const actor = actingUser(call);
    const known = new Set(publicEvents().map((e) => e.kind));
    const unknown = input.events.filter((k) => !known.has(k));
    if (unknown.length > 0) {
      throw new AppError('VALIDATION_ERROR', `events: not public event kinds: ${unknown.join(', ')}`, {
        known: [...known].sort(),
      });
    }
    try {
      await checkWebhookUrl(input.url, allowPrivate);
    } catch (err) {
      throw new AppError('VALIDATION_ERROR', `url: ${(err as Error).message}`);
    }
    return insertWebhook(ctx.db, {
      ownerId: actor.id,
      url: input.url,
      events: input.events,
      secret: input.secret,
      createdAt: ctx.clock.now().toISOString(),
    });
  });

/** transparency.webhook.list: the caller's own webhooks. */
export const listOwnWebhooks = (ctx: ServiceContext) =>
  handle(webhookList, async ({ page, limit }, call) => {
    const actor = actingUser(call);
    const { items, total } = await listWebhooks(ctx.db, actor.id, page, limit);
    return { items, pagination: paginate(page, limit, total) };
  });

/** transparency.webhook-delivery.list: deliveries of a webhook, to its owner or an ADMIN. */
export const listWebhookDeliveries = (ctx: ServiceContext) =>
  handle(webhookDeliveryList, async ({ webhookId, page, limit }, call) => {
    const hook = await findWebhook(ctx.db, webhookId);
    if (!hook) throw notFound('Webhook', webhookId);
    assertOwnerOrAdmin(call, hook.ownerId);
    const { items, total } = await listDeliveries(ctx.db, webhookId, page, limit);
    return { items, pagination: paginate(page, limit, total) };
  });

/** transparency.webhook.delete: the owner or an ADMIN deletes a webhook; nothing more is sent to it. */
export const removeWebhook = (ctx: ServiceContext) =>
  handle(webhookDelete, async ({ webhookId }, call) => {
    const hook = await findWebhook(ctx.db, webhookId);
    if (!hook) throw notFound('Webhook', webhookId);
    assertOwnerOrAdmin(call, hook.ownerId);
    await deleteWebhook(ctx.db, webhookId);
    return { id: webhookId, deleted: true };
  });
