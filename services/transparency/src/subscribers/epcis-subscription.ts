import { EPCIS_SUBSCRIPTION_KIND, epcisSubscriptionMatched } from '@rootline/contracts';
import { type ServiceContext, subscribe } from '@rootline/host';
import { enqueueDeliveryDrafts, findWebhook } from '../db/webhooks.repo.js';

/**
 * A result of an EPCIS query subscription (ADR 313): queued for the subscription's webhook alone, once per delivery
 * key, then signed, retried and logged as every delivery. A webhook that is gone, disabled or not the subscriber's
 * gets nothing.
 */
export const onEpcisSubscriptionMatched = (ctx: ServiceContext, webhookWorker: { kick(): void }) =>
  subscribe(epcisSubscriptionMatched, 'epcis-subscription-results', async (p, meta) => {
    const hook = await findWebhook(meta.tx, p.webhookId);
    if (!hook || hook.ownerId !== p.ownerId || hook.status !== 'active') return;
    await enqueueDeliveryDrafts(
      meta.tx,
      [
        {
          webhookId: hook.id,
          eventId: p.deliveryKey,
          kind: EPCIS_SUBSCRIPTION_KIND,
          occurredAt: meta.occurredAt,
          data: p.document,
        },
      ],
      ctx.clock.now(),
    );
    meta.afterCommit(() => webhookWorker.kick());
  });
