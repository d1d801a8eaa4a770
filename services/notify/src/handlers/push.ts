import { isOwnerOrAdmin, newId, pushPublicKey, pushSubscribe, pushUnsubscribe } from '@rootline/contracts';
import { actingUser } from '@rootline/domain';
import { handle, notFound, type ServiceContext } from '@rootline/host';
import { deletePushSubscription, findPushSubscription, savePushSubscription } from '../db/push.repo.js';

/** Records the subscription with the VAPID public key it was made with, so a lost key is noticed at start. */
export const subscribePush = (ctx: ServiceContext, vapidPublicKey: string) =>
  handle(pushSubscribe, async (input, caller) => {
    const now = ctx.clock.now();
    const row = await savePushSubscription(ctx.db, {
      id: newId('psh', now.getTime()),
      userId: actingUser(caller).id,
      endpoint: input.endpoint,
      p256dh: input.keys.p256dh,
      auth: input.keys.auth,
      vapidPublicKey,
      createdAt: now.toISOString(),
    });
    return { id: row.id, endpoint: row.endpoint, createdAt: new Date(row.createdAt).toISOString() };
  });

/** Another user's subscription is NOT_FOUND to the caller (an ADMIN may remove any). */
export const unsubscribePush = (ctx: ServiceContext) =>
  handle(pushUnsubscribe, async ({ subscriptionId }, caller) => {
    const row = await findPushSubscription(ctx.db, subscriptionId);
    if (!row || !isOwnerOrAdmin(actingUser(caller), row.userId)) throw notFound('Push subscription', subscriptionId);
    return { id: subscriptionId, removed: await deletePushSubscription(ctx.db, subscriptionId) };
  });

export const vapidPublicKey = (publicKey: string) => handle(pushPublicKey, async () => ({ publicKey }));
