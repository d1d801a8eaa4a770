import { webhookDisabled } from '@rootline/contracts';
import { type ServiceContext, subscribe } from '@rootline/host';
import { notifyUser } from './dispatch.js';

/** A webhook was disabled (its receiver is gone, or failed for days): its owner is told by email. */
export const onWebhookDisabled = (ctx: ServiceContext) =>
  subscribe(webhookDisabled, 'webhook-disabled', async (p, meta) => {
    const params = { webhookId: p.webhookId, url: p.url, reason: p.reason, failingSince: p.failingSince };
    await notifyUser(ctx, meta, p.ownerId, { name: 'webhook-disabled', params }, { webhookId: p.webhookId });
  });
