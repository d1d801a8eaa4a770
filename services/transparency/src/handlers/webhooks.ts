import {
  AppError,
  type CallContext,
  EPCIS_SUBSCRIPTION_KIND,
  newId,
  paginate,
  publicEvents,
  WEBHOOK_TEST_KIND,
  type WebhookArea,
  webhookCreate,
  webhookCreateForSubscription,
  webhookDelete,
  webhookDeliveryList,
  webhookGet,
  webhookList,
  webhookRedeliver,
  webhookTest,
  webhookUpdate,
} from '@rootline/contracts';
import { actingOwner, actingUser, assertOwnerOrAdmin } from '@rootline/domain';
import { handle, notFound, type ServiceContext } from '@rootline/host';
import { checkWebhookUrl, type SendOptions, sendWebhook } from '../adapters/webhook-sender.js';
import {
  deleteWebhook,
  findWebhook,
  insertWebhook,
  listDeliveries,
  listWebhooks,
  requeueDelivery,
  toWebhook,
  updateWebhook,
} from '../db/webhooks.repo.js';
import { openSecret, type SecretKeyring, sealSecret } from '../domain/secret-box.js';
import { areaProblem } from '../domain/webhook-area.js';
import { generatedWebhookSecret, standardWebhooksSecret, webhookMessage } from '../domain/webhook-message.js';

/** Refuses event kinds that are not public (with the known ones in the details). */
function assertPublicKinds(events: string[]): void {
  const known = new Set(publicEvents().map((e) => e.kind));
  const unknown = events.filter((k) => !known.has(k));
  if (unknown.length > 0) {
    throw new AppError('VALIDATION_ERROR', `events: not public event kinds: ${unknown.join(', ')}`, {
      field: 'events',
      reason: 'not-public-kind',
      known: [...known].sort(),
    });
  }
}

/** Refuses an area that cannot be matched (a box out of range or upside down, a city without its country). */
function assertArea(area: WebhookArea | null | undefined): void {
  const problem = area ? areaProblem(area) : null;
  if (problem) throw new AppError('VALIDATION_ERROR', problem, { field: 'area', reason: 'area-invalid' });
}

/** Refuses an address the platform may not reach (checked at registration and on every change of address). */
async function assertReachable(url: string, allowPrivate: boolean): Promise<void> {
  try {
    await checkWebhookUrl(url, allowPrivate);
  } catch (err) {
    throw new AppError('VALIDATION_ERROR', `url: ${(err as Error).message}`);
  }
}

/**
 * An organization's webhooks (its integrations, with their secrets) are managed by its owners and managers acting for
 * it (ADR 237).
 */
const HOOK_KEEPER = 'manager' as const;

/**
 * A webhook the caller owns (or the organization it acts for, as a manager): NOT_FOUND, or FORBIDDEN for anyone else
 * (an ADMIN too: they may only read).
 */
async function ownWebhook(ctx: ServiceContext, webhookId: string, call: CallContext) {
  const actor = actingUser(call);
  const hook = await findWebhook(ctx.db, webhookId);
  if (!hook) throw notFound('Webhook', webhookId);
  if (hook.ownerId === actor.org?.id && actor.org) {
    assertOwnerOrAdmin(call, hook.ownerId, HOOK_KEEPER);
    return hook;
  }
  if (hook.ownerId !== actor.id) {
    throw new AppError('FORBIDDEN', 'Only the owner of a webhook may change it', { reason: 'not-owner' });
  }
  return hook;
}

/**
 * transparency.webhook.create: a webhook owned by the caller, for public kinds, to an address it may reach, of
 * `own` scope (the default) or `public`, optionally narrowed to an area; without a secret, one is generated. The
 * answer shows the secret once.
 */
export const createWebhook = (ctx: ServiceContext, allowPrivate: boolean, secretKey: SecretKeyring) =>
  handle(webhookCreate, async (input, call) => {
    const { ownerId } = actingOwner(call, undefined, HOOK_KEEPER);
    assertPublicKinds(input.events);
    assertArea(input.area);
    await assertReachable(input.url, allowPrivate);
    const secret = input.secret ?? generatedWebhookSecret();
    const hook = await insertWebhook(ctx.db, {
      ownerId,
      url: input.url,
      events: input.events,
      scope: input.scope,
      area: input.area ?? null,
      secret: sealSecret(secretKey, secret),
      createdAt: ctx.clock.now().toISOString(),
    });
    return { ...hook, signingSecret: standardWebhooksSecret(secret) };
  });

/** transparency.webhook.list: the caller's own webhooks, or those of the organization it acts for (a manager). */
export const listOwnWebhooks = (ctx: ServiceContext) =>
  handle(webhookList, async ({ page, limit }, call) => {
    const { ownerId } = actingOwner(call, undefined, HOOK_KEEPER);
    const { items, total } = await listWebhooks(ctx.db, ownerId, page, limit);
    return { items, pagination: paginate(page, limit, total) };
  });

/** transparency.webhook-delivery.list: deliveries of a webhook, to its owner or an ADMIN. */
export const listWebhookDeliveries = (ctx: ServiceContext) =>
  handle(webhookDeliveryList, async ({ webhookId, page, limit }, call) => {
    const hook = await findWebhook(ctx.db, webhookId);
    if (!hook) throw notFound('Webhook', webhookId);
    assertOwnerOrAdmin(call, hook.ownerId, HOOK_KEEPER);
    const { items, total } = await listDeliveries(ctx.db, webhookId, page, limit);
    return { items, pagination: paginate(page, limit, total) };
  });

/** transparency.webhook.delete: the owner or an ADMIN deletes a webhook; nothing more is sent to it. */
export const removeWebhook = (ctx: ServiceContext) =>
  handle(webhookDelete, async ({ webhookId }, call) => {
    const hook = await findWebhook(ctx.db, webhookId);
    if (!hook) throw notFound('Webhook', webhookId);
    assertOwnerOrAdmin(call, hook.ownerId, HOOK_KEEPER);
    // Deleted by a concurrent request meanwhile: only one delete is told it deleted the webhook.
    if (!(await deleteWebhook(ctx.db, webhookId))) throw notFound('Webhook', webhookId);
    return { id: webhookId, deleted: true };
  });

/** transparency.webhook.get: one webhook, to its owner or an ADMIN. */
export const getWebhook = (ctx: ServiceContext) =>
  handle(webhookGet, async ({ webhookId }, call) => {
    const hook = await findWebhook(ctx.db, webhookId);
    if (!hook) throw notFound('Webhook', webhookId);
    assertOwnerOrAdmin(call, hook.ownerId, HOOK_KEEPER);
    return toWebhook(hook);
  });

/**
 * transparency.webhook.update: the owner changes address, kinds, scope, area (null: anywhere) or secret, or enables
 * a disabled webhook. A new scope or area applies to events recorded from then on.
 */
export const changeWebhook = (ctx: ServiceContext, allowPrivate: boolean, secretKey: SecretKeyring) =>
  handle(webhookUpdate, async ({ webhookId, ...change }, call) => {
    if (Object.keys(change).length === 0) {
      throw new AppError('VALIDATION_ERROR', 'Nothing to change: give url, events, scope, area, secret or status');
    }
    const hook = await ownWebhook(ctx, webhookId, call);
    // An EPCIS subscription's webhook carries its results alone (ADR 313): its address and secret may change.
    if (hook.events.includes(EPCIS_SUBSCRIPTION_KIND) && (change.events || change.scope || change.area !== undefined)) {
      throw new AppError(
        'VALIDATION_ERROR',
        'This webhook delivers an EPCIS subscription: change its url, secret or status, or delete the subscription',
        { field: 'events' },
      );
    }
    if (change.events) assertPublicKinds(change.events);
    assertArea(change.area);
    if (change.url) await assertReachable(change.url, allowPrivate);
    const sealed = change.secret === undefined ? change : { ...change, secret: sealSecret(secretKey, change.secret) };
    const updated = await updateWebhook(ctx.db, webhookId, sealed);
    if (!updated) throw notFound('Webhook', webhookId);
    return change.secret === undefined ? updated : { ...updated, signingSecret: standardWebhooksSecret(change.secret) };
  });

/**
 * transparency.webhook.test: sends one signed `webhook.test` delivery now, signed and shaped as every delivery,
 * and answers its outcome. It is not stored and not retried, and it does not move the failure clock.
 */
export const testWebhook = (ctx: ServiceContext, send: SendOptions, secretKey: SecretKeyring) =>
  handle(webhookTest, async ({ webhookId }, call) => {
    const hook = await ownWebhook(ctx, webhookId, call);
    const deliveryId = newId('whd', ctx.clock.now().getTime());
    const started = ctx.clock.now();
    const message = webhookMessage(
      openSecret(secretKey, hook.secret),
      deliveryId,
      Math.floor(started.getTime() / 1000),
      {
        event: WEBHOOK_TEST_KIND,
        timestamp: started.toISOString(),
        data: { webhookId, message: 'A test delivery from Rootline' },
      },
    );
    let httpStatus: number | null = null;
    let error: string | null = null;
    try {
      httpStatus = await sendWebhook(hook.url, message, send);
      if (httpStatus < 200 || httpStatus >= 300) error = `receiver answered ${httpStatus}`;
    } catch (err) {
      error = (err as Error).message.slice(0, 500);
    }
    return {
      deliveryId,
      kind: WEBHOOK_TEST_KIND,
      delivered: error === null,
      httpStatus,
      error,
      durationMs: Math.max(0, ctx.clock.now().getTime() - started.getTime()),
    };
  });

/** transparency.webhook-delivery.redeliver: the owner queues a delivery again, with a fresh retry schedule. */
export const redeliverWebhookDelivery = (ctx: ServiceContext, worker: { kick(): void }) =>
  handle(webhookRedeliver, async ({ webhookId, deliveryId }, call) => {
    const hook = await ownWebhook(ctx, webhookId, call);
    if (hook.status !== 'active') {
      throw new AppError('CONFLICT', 'The webhook is disabled: enable it (PATCH status active) first', {
        reason: 'webhook-disabled',
      });
    }
    const delivery = await requeueDelivery(ctx.db, webhookId, deliveryId, ctx.clock.now());
    if (!delivery) throw notFound('Webhook delivery', deliveryId);
    worker.kick();
    return delivery;
  });

/**
 * transparency.webhook.create-for-subscription: a webhook of the calling account (ADR 313) that receives only what is
 * queued for it (its `events` hold the given kind, which no domain event has). Checked and sealed as any webhook.
 */
export const createSubscriptionWebhook = (ctx: ServiceContext, allowPrivate: boolean, secretKey: SecretKeyring) =>
  handle(webhookCreateForSubscription, async (input, call) => {
    const ownerId = actingUser(call).id;
    await assertReachable(input.url, allowPrivate);
    const secret = input.secret ?? generatedWebhookSecret();
    const hook = await insertWebhook(ctx.db, {
      ownerId,
      url: input.url,
      events: [input.kind],
      scope: 'own',
      area: null,
      secret: sealSecret(secretKey, secret),
      createdAt: ctx.clock.now().toISOString(),
    });
    return { ...hook, signingSecret: standardWebhooksSecret(secret) };
  });
