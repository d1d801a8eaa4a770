import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { WebhookUpdateInput, webhookGet, webhookRedeliver, webhookTest, webhookUpdate } from '@rootline/contracts';
import { type BusRouteDeps, busRoute } from '../http/bus-route.js';

const TAGS = ['Transparency'];

/**
 * Management of one webhook under /api/transparency/webhooks/{id} (read, change, test, redeliver); creation,
 * the list, deletion and the delivery list are in `transparency.ts`.
 */
export const transparencyWebhookRoutes: FastifyPluginAsyncTypebox<BusRouteDeps> = async (app, deps) => {
  busRoute(app, deps, {
    method: 'GET',
    url: '/webhooks/:webhookId',
    summary: 'Read a webhook',
    description:
      'One webhook (never its secret): status, `disabledReason` (`gone` after a 410, `failing` after failing for the ' +
      'configured time) and `failingSince`. Owner or ADMIN.',
    tags: TAGS,
    policy: {
      permission: 'webhooks:manage',
      orgRole: 'manager',
      object: { rule: 'owner', field: 'webhookId', record: 'webhook' },
    },
    subject: webhookGet,
    errors: ['NOT_FOUND'],
  });

  busRoute(app, deps, {
    method: 'PATCH',
    url: '/webhooks/:webhookId',
    summary: 'Change a webhook',
    description:
      'Any of `url` (checked against the address rules again), `events`, `scope` (`own` or `public`), `area` (a ' +
      'new place, or null for anywhere; both apply to events recorded from then on), `secret` (rotation: ' +
      'deliveries from now on are signed with the new one) and `status: "active"` (enables a disabled webhook; its ' +
      'failure clock starts afresh, as it does on a new address). Deliveries stopped by a disabling stay failed: ' +
      'redeliver them. Owner only.',
    tags: TAGS,
    policy: {
      permission: 'webhooks:manage',
      orgRole: 'manager',
      object: { rule: 'owner', field: 'webhookId', record: 'webhook' },
    },
    subject: webhookUpdate,
    errors: ['NOT_FOUND'],
    example: WebhookUpdateInput.examples?.[0],
  });

  busRoute(app, deps, {
    method: 'POST',
    url: '/webhooks/:webhookId/test',
    summary: 'Send a test delivery',
    description:
      'Sends one delivery of kind `webhook.test` now, shaped and signed as every delivery (`data` holds `webhookId` ' +
      'and a message), also to a disabled webhook, and answers the outcome: `delivered` (2xx), the HTTP status or ' +
      'the error, and the time taken. It is not stored, not retried and does not count as a failure. Owner only.',
    tags: TAGS,
    policy: {
      permission: 'webhooks:manage',
      orgRole: 'manager',
      object: { rule: 'owner', field: 'webhookId', record: 'webhook' },
    },
    subject: webhookTest,
    errors: ['NOT_FOUND'],
  });

  busRoute(app, deps, {
    method: 'POST',
    url: '/webhooks/:webhookId/deliveries/:deliveryId/redeliver',
    summary: 'Redeliver',
    description:
      'Queues a delivery again now, failed or delivered, with a fresh retry schedule (its attempts start from 0) and ' +
      'the same `webhook-id`, so a receiver that dropped it as a repeat must be told. 409 while the webhook is ' +
      'disabled. Owner only.',
    tags: TAGS,
    policy: {
      permission: 'webhooks:manage',
      orgRole: 'manager',
      object: [
        { rule: 'owner', field: 'webhookId', record: 'webhook' },
        { rule: 'attached-to', field: 'deliveryId', record: 'webhook delivery' },
      ],
    },
    subject: webhookRedeliver,
    status: 202,
    errors: ['NOT_FOUND', 'CONFLICT'],
  });
};
