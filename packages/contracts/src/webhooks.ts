import { type Static, Type } from '@sinclair/typebox';
import { PrefixedId, Timestamp } from './common.js';
import { defineEvent, defineSubject, Named } from './define.js';
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

/** Why a webhook was disabled: its receiver answered 410 Gone, or every attempt failed for the configured time. */
export const WEBHOOK_DISABLED_REASONS = ['gone', 'failing'] as const;
export const WebhookDisabledReason = Type.Union(
  WEBHOOK_DISABLED_REASONS.map((r) => Type.Literal(r)),
  { description: '`gone`: the receiver answered 410; `failing`: every attempt failed for the configured time' },
);

export const Webhook = Named(
  'Webhook',
  Type.Object({
    id: WebhookId,
    url: Type.String(),
    events: Type.Array(Type.String()),
    status: Type.Union([Type.Literal('active'), Type.Literal('disabled')]),
    ownerId: Type.String(),
    createdAt: Timestamp,
    disabledReason: Type.Union([WebhookDisabledReason, Type.Null()], { description: 'Set while disabled' }),
    failingSince: Type.Union([Timestamp, Type.Null()], {
      description: 'First failed attempt since the last success; null while the receiver answers',
    }),
  }),
);
export type Webhook = Static<typeof Webhook>;

export const WebhookDelivery = Named(
  'WebhookDelivery',
  Type.Object({
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
  }),
);

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

/** The kind of the test delivery `POST /webhooks/{id}/test` sends (not a domain event, never in the history). */
export const WEBHOOK_TEST_KIND = 'webhook.test' as const;

/** A change of a webhook: any of its fields, a new secret, or `status: 'active'` to enable a disabled one. */
export const WebhookUpdateInput = Type.Object(
  {
    url: Type.Optional(WebhookInput.properties.url),
    events: Type.Optional(WebhookInput.properties.events),
    secret: Type.Optional(WebhookInput.properties.secret),
    status: Type.Optional(
      Type.Literal('active', { description: 'Enable a disabled webhook again (its failure clock starts afresh)' }),
    ),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    examples: [
      {
        url: 'https://hooks.example.org/rootline-v2',
        events: ['plant.registered'],
        secret: 'the-rotated-shared-secret-9876543210',
        status: 'active',
      },
    ],
  },
);

/** The outcome of one attempt sent now (a test delivery). */
export const WebhookAttemptOutcome = Type.Object({
  deliveryId: Type.String({ description: 'Sent as `webhook-id`' }),
  kind: Type.Literal(WEBHOOK_TEST_KIND),
  delivered: Type.Boolean({ description: 'True when the receiver answered 2xx' }),
  httpStatus: Type.Union([Type.Integer(), Type.Null()], { description: 'Null when no answer came' }),
  error: Type.Union([Type.String(), Type.Null()]),
  durationMs: Type.Integer({ minimum: 0 }),
});

export const WebhookDeliveryRef = Type.Object({
  webhookId: WebhookId,
  deliveryId: PrefixedId('whd', 'Delivery identifier'),
});

export const webhookGet = defineSubject({
  subject: 'transparency.webhook.get',
  request: Type.Object({ webhookId: WebhookId }),
  reply: Webhook,
  summary: 'One webhook (never its secret), to its owner or an ADMIN',
});
export const webhookUpdate = defineSubject({
  subject: 'transparency.webhook.update',
  request: Type.Object({ webhookId: WebhookId, ...WebhookUpdateInput.properties }, { additionalProperties: false }),
  reply: Webhook,
  summary: 'Change the address, kinds or secret of a webhook, or enable it again; owner only',
});
export const webhookTest = defineSubject({
  subject: 'transparency.webhook.test',
  request: Type.Object({ webhookId: WebhookId }),
  reply: WebhookAttemptOutcome,
  summary: 'Send a signed `webhook.test` delivery now and answer its outcome; owner only',
});
export const webhookRedeliver = defineSubject({
  subject: 'transparency.webhook-delivery.redeliver',
  request: WebhookDeliveryRef,
  reply: WebhookDelivery,
  summary: 'Queue a delivery again, failed or delivered; owner only',
});

/**
 * A webhook was disabled by the platform (410 Gone, or failing for the configured time): its owner is told.
 * Internal (no public kind): it names the receiver address, which is the owner's business only.
 */
export const webhookDisabled = defineEvent({
  subject: 'evt.transparency.webhook.disabled',
  payload: Type.Object({
    webhookId: Type.String(),
    ownerId: Type.String({ description: 'The user to tell' }),
    url: Type.String(),
    reason: WebhookDisabledReason,
    failingSince: Type.Union([Type.String(), Type.Null()]),
    disabledAt: Type.String(),
  }),
});
