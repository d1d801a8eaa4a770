import { type Static, Type } from '@sinclair/typebox';
import { PrefixedId, Text, Timestamp } from './common.js';
import { Defaulted, defineEvent, defineSubject, Named } from './define.js';
import { PageQuery, Pagination } from './envelope.js';
import { PublicEventKind } from './event-kinds.js';

export const WebhookId = PrefixedId('whk', 'Webhook identifier');

/**
 * What a webhook subscribes to: `own` (its owner's records: events the owner caused or whose payload names the
 * owner) or `public` (the public feed: every event of its kinds, as the event history shows it to anyone signed in).
 */
export const WEBHOOK_SCOPES = ['own', 'public'] as const;
export type WebhookScope = (typeof WEBHOOK_SCOPES)[number];
const SCOPE_DESCRIPTION =
  '`own`: events of its kinds that concern its owner (the owner caused them, or the payload names the owner); ' +
  '`public`: every event of its kinds, whoever caused it, in the public form the event history shows anyone ' +
  'signed in.';
export const WebhookScopeSchema = Type.Union(
  WEBHOOK_SCOPES.map((s) => Type.Literal(s)),
  { description: SCOPE_DESCRIPTION },
);

/**
 * A place that narrows a webhook's events: a bounding box, a region (country, optionally city), or both (an event
 * must then be in both). It matches an event whose public payload carries a location (after the privacy level) or
 * a country and city; an event without one never matches.
 */
export const WebhookArea = Type.Object(
  {
    bbox: Type.Optional(
      // Longitudes and latitudes alike lie within ±180; which is which is checked with the box (VALIDATION_ERROR).
      Type.Array(Type.Number({ minimum: -180, maximum: 180 }), {
        minItems: 4,
        maxItems: 4,
        description:
          '`[minLon, minLat, maxLon, maxLat]` in decimal degrees (GeoJSON order), edges included. A box with ' +
          'minLon greater than maxLon crosses the antimeridian (e.g. `[170, -50, -170, -30]`). Matches an event whose ' +
          'location (after its privacy level) lies inside.',
      }),
    ),
    country: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z]{2}$',
        description:
          'ISO 3166-1 alpha-2 code, e.g. `NL`; matches an event whose country is that code, in any case (a country ' +
          'written out in full, such as `Netherlands`, does not match)',
      }),
    ),
    city: Type.Optional(
      Text({
        minLength: 1,
        maxLength: 120,
        description: 'With `country` only: matches an event whose city is this name, compared ignoring case',
      }),
    ),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    description:
      'Narrows the webhook to events in a place: `bbox`, `country` (optionally with `city`), or both (an event must ' +
      'then be in both). Only events whose public payload carries a location or a country (today `plant.registered`, ' +
      'unless the plant is hidden) can match; others never reach an area-narrowed webhook.',
    examples: [{ bbox: [4.73, 52.27, 5.07, 52.43] }, { country: 'NL', city: 'Amsterdam' }],
  },
);
export type WebhookArea = Static<typeof WebhookArea>;

/** The rules of a webhook secret given by its owner: this many characters, each from `!` (0x21) to `~` (0x7e). */
export const WEBHOOK_SECRET_RULES = { minLength: 16, maxLength: 200 } as const;

export const WebhookInput = Type.Object(
  {
    url: Type.String({
      pattern: '^https?://[^\\s]+$',
      maxLength: 2000,
      description: 'Receiver address (http or https); private, loopback and link-local addresses are refused',
    }),
    events: Type.Array(PublicEventKind, {
      minItems: 1,
      maxItems: 30,
      uniqueItems: true,
      description: 'Public event kinds to receive',
    }),
    secret: Type.Optional(
      Type.String({
        pattern: '^[\\x21-\\x7e]+$',
        minLength: WEBHOOK_SECRET_RULES.minLength,
        maxLength: WEBHOOK_SECRET_RULES.maxLength,
        description:
          'Shared secret that keys the HMAC signatures: 16–200 characters from `!` to `~` (printable ASCII without ' +
          'the space; a space, tab or any other character is refused). A Standard Webhooks secret (`whsec_` + base64 ' +
          'of random bytes, as `standardwebhooks` libraries make) stands for its decoded bytes; any other for its ' +
          'UTF-8 bytes. Omitted: Rootline generates one (`whsec_` + base64 of 24 random bytes). Either way the answer ' +
          'shows it once as `signingSecret`.',
      }),
    ),
    scope: Defaulted(
      Type.Union(
        WEBHOOK_SCOPES.map((s) => Type.Literal(s)),
        { default: 'own', description: `${SCOPE_DESCRIPTION} Default: own.` },
      ),
    ),
    area: Type.Optional(WebhookArea),
  },
  {
    additionalProperties: false,
    examples: [
      {
        url: 'https://hooks.example.org/rootline',
        events: ['plant.registered', 'listing.sold'],
        secret: 'a-long-random-shared-secret-0123456789',
      },
      { url: 'https://hooks.example.org/rootline-generated', events: ['listing.sold'] },
      {
        url: 'https://coop.example.org/rootline/new-plants',
        events: ['plant.registered'],
        secret: 'the-co-op-shared-secret-0123456789',
        scope: 'public',
        area: { bbox: [4.73, 52.27, 5.07, 52.43] },
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
    scope: WebhookScopeSchema,
    area: Type.Union([WebhookArea, Type.Null()], { description: 'The place it is narrowed to; null for anywhere' }),
    createdAt: Timestamp,
    disabledReason: Type.Union([WebhookDisabledReason, Type.Null()], { description: 'Set while disabled' }),
    failingSince: Type.Union([Timestamp, Type.Null()], {
      description: 'First failed attempt since the last success; null while the receiver answers',
    }),
  }),
);
export type Webhook = Static<typeof Webhook>;

const SigningSecret = Type.String({
  description:
    'The secret in the Standard Webhooks form (`whsec_` + base64 of its key bytes): `new Webhook(signingSecret)` of ' +
    'the `standardwebhooks` package verifies a delivery as it is. Shown when the secret is set, never again.',
});

/** A webhook as its creation answers it: with its secret once, in the form Standard Webhooks libraries take. */
export const WebhookCreated = Type.Composite([Webhook, Type.Object({ signingSecret: SigningSecret })]);
export type WebhookCreated = Static<typeof WebhookCreated>;

/** A changed webhook: with `signingSecret` when the change set a new secret. */
export const WebhookChanged = Type.Composite([Webhook, Type.Object({ signingSecret: Type.Optional(SigningSecret) })]);

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
  reply: WebhookCreated,
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
    scope: Type.Optional(WebhookScopeSchema),
    area: Type.Optional(
      Type.Union([WebhookArea, Type.Null()], { description: 'A new place to narrow it to; null for anywhere' }),
    ),
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
  reply: WebhookChanged,
  summary: 'Change the address, kinds, scope, area or secret of a webhook, or enable it again; owner only',
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

/**
 * Webhooks that carry EPCIS query subscriptions (ADR 313): the transport service creates one for the caller when a
 * subscription is made, and each result is queued for that webhook alone. Their `events` hold only the subscription
 * kind (`epcis.query-result`), so no domain event reaches them.
 */
export const webhookCreateForSubscription = defineSubject({
  subject: 'transparency.webhook.create-for-subscription',
  request: Type.Object({
    url: WebhookInput.properties.url,
    secret: WebhookInput.properties.secret,
    kind: Type.String({
      pattern: '^[a-z][a-z0-9-]*(\\.[a-z][a-z0-9-]*)+$',
      maxLength: 100,
      description: 'The kind its deliveries carry (not a domain event’s)',
    }),
  }),
  reply: WebhookCreated,
  summary: 'Register a webhook of the caller’s that receives only what is queued for it',
});
