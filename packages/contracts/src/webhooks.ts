import { type Static, Type } from '@sinclair/typebox';
import { PrefixedId, Timestamp } from './common.js';
import { defineSubject } from './define.js';
import { PageQuery, Pagination } from './envelope.js';

export const WebhookId = PrefixedId('whk', 'Webhook identifier');

export const WebhookInput = Type.Object(
  {
    url: Type.String({
      pattern: '^https?://[^\\s]+$',
      maxLength: 2000,
      description: 'Receiver address (http or https); private, loopback and link-local addresses are refused',
    }),
    events: Type.Array(
      Type.String({ pattern: '^[a-z][a-z0-9-]*(\\.[a-z][a-z0-9-]*)+$', maxLength: 100, description: 'A public kind' }),
      { minItems: 1, maxItems: 30, uniqueItems: true, description: 'Public event kinds to receive' },
    ),
    secret: Type.String({
      pattern: '^[\\x21-\\x7e]+$',
      minLength: 16,
      maxLength: 200,
      description: 'Shared secret (16–200 printable ASCII characters) that keys the HMAC signatures',
    }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        url: 'https://hooks.example.org/rootline',
        events: ['plant.registered', 'listing.sold'],
        secret: 'a-long-random-shared-secret-0123456789',
      },
    ],
  },
);

export const Webhook = Type.Object({
  id: WebhookId,
  url: Type.String(),
  events: Type.Array(Type.String()),
  status: Type.Union([Type.Literal('active'), Type.Literal('disabled')]),
  ownerId: Type.String(),
  createdAt: Timestamp,
});
export type Webhook = Static<typeof Webhook>;

export const WebhookDelivery = Type.Object({
  id: Type.String({ description: 'Delivery id, sent as `webhook-id` (the same on every retry)' }),
  webhookId: WebhookId,
  eventId: Type.String(),
  kind: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
  attempts: Type.Integer({ minimum: 0 }),
  lastStatus: Type.Union([Type.Integer(), Type.Null()], { description: 'HTTP status of the last attempt' }),
  lastError: Type.Union([Type.String(), Type.Null()]),
  nextAttemptAt: Type.Union([Timestamp, Type.Null()]),
  deliveredAt: Type.Union([Timestamp, Type.Null()]),
});

export const webhookCreate = defineSubject({
  subject: 'transparency.webhook.create',
  request: WebhookInput,
  reply: Webhook,
  summary: 'Register a webhook for the caller',
});
export const webhookList = defineSubject({
  subject: 'transparency.webhook.list',
  request: Type.Object({ ...PageQuery.properties }),
  reply: Type.Object({ items: Type.Array(Webhook), pagination: Pagination }),
  summary: "The caller's webhooks",
});
export const webhookDeliveryList = defineSubject({
  subject: 'transparency.webhook-delivery.list',
  request: Type.Object({ webhookId: WebhookId, ...PageQuery.properties }),
  reply: Type.Object({ items: Type.Array(WebhookDelivery), pagination: Pagination }),
  summary: 'Deliveries of one of the caller’s webhooks, newest first',
});
export const webhookDelete = defineSubject({
  subject: 'transparency.webhook.delete',
  request: Type.Object({ webhookId: WebhookId }),
  reply: Type.Object({ id: WebhookId, deleted: Type.Boolean() }),
  summary: 'Delete a webhook; its pending deliveries stop',
});
