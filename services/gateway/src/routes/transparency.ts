import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AuditEntry,
  auditAppend,
  auditGet,
  auditList,
  auditVerify,
  EventHistoryQuery,
  eventHistory,
  PAGE_DEFAULTS,
  PublicEvent,
  Webhook,
  WebhookDelivery,
  webhookCreate,
  webhookDelete,
  webhookDeliveryList,
  webhookList,
} from '@rootline/contracts';
import { gaugeReadAt, type Logger } from '@rootline/host';
import { Type } from '@sinclair/typebox';
import type { Registry } from 'prom-client';
import { type BusRouteDeps, busRoute } from '../http/bus-route.js';
import { errorResponses } from '../plugins/openapi.js';
import { createEventHub } from '../transparency/event-stream.js';

export interface TransparencyRouteDeps extends BusRouteDeps {
  log: Logger;
  sse: { heartbeatMs: number; pollMs: number; maxQueued: number };
  /** Where the number of connected event-stream clients is reported (`sse_clients`). */
  metrics?: Registry;
}

const StreamQuery = Type.Object(
  {
    kind: EventHistoryQuery.properties.kind,
    lastEventId: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: Number.MAX_SAFE_INTEGER,
        description: 'Resume after this event id (for clients that cannot send the Last-Event-ID header)',
      }),
    ),
  },
  { additionalProperties: false },
);

const TAGS = ['Transparency'];
const HASHING =
  'Each entry is hashed as its RFC 8785 canonical JSON: leaf = SHA-256(0x00 ‖ entry), node = SHA-256(0x01 ‖ left ‖ ' +
  'right) (RFC 6962 §2.1); an entry’s `prevHash` is the leaf hash of the entry before, so the log is also a hash chain.';

const WEBHOOKS =
  'Registers a webhook owned by the caller for public event kinds (see the event catalogue). With `scope: "own"` ' +
  '(the default) it receives an event only when the event concerns its owner: the owner caused it, or the payload ' +
  'names the owner. With `scope: "public"` it receives every event of its kinds, in the public form the event ' +
  'history shows anyone signed in. `area` narrows either to events in a bounding box `bbox: [minLon, minLat, ' +
  'maxLon, maxLat]` (minLon > maxLon crosses the antimeridian), a region `country` (ISO code, e.g. `NL`) with ' +
  'optional `city` (any case), or both; an event matches by the location its public payload carries (after the ' +
  'privacy level; only `plant.registered` has one, none when hidden), and an event without one never does. ' +
  '`data` is always the public form. Each delivery is ' +
  'a POST of `{event, timestamp, data, signature}`; `signature` (also in `X-Rootline-Signature`) is `sha256=` + hex ' +
  'HMAC-SHA256 keyed with the secret over the RFC 8785 canonical JSON of `{data, event, timestamp}`. Standard ' +
  'Webhooks headers `webhook-id`, `webhook-timestamp` and `webhook-signature` are sent too (verify with a Standard ' +
  "Webhooks library, the secret's bytes as a raw key). Retries with backoff and jitter for about three days; 410 " +
  'disables the webhook. Private, loopback and link-local addresses are refused, also after DNS resolution; ' +
  'redirects are not followed.';

/** The verifiable audit log, event stream and history, and webhooks under /api/transparency. */

/** Two events of the stream as a client reads them. */
const STREAM_EXAMPLE = [
  'id: 1042',
  'event: plant.registered',
  'data: {"id":"evt_01HZX3K6Q2W8N4B7T5R9V0C1MD","kind":"plant.registered","occurredAt":"2026-05-04T09:30:00.000Z",' +
    '"data":{"plantId":"plt_01HZX3K6Q2W8N4B7T5R9V0C1MD","commonName":"Tomato","generation":0}}',
  '',
  ': heartbeat',
  '',
].join('\n');
export const transparencyRoutes: FastifyPluginAsyncTypebox<TransparencyRouteDeps> = async (app, deps) => {
  const hub = createEventHub({ bus: deps.bus, log: deps.log, timeoutMs: deps.timeoutMs, ...deps.sse });
  app.addHook('onClose', () => hub.close());
  if (deps.metrics) {
    const unregister = gaugeReadAt(
      deps.metrics,
      { name: 'sse_clients', help: 'Clients connected to the server-sent event stream of this gateway' },
      () => [{ labels: {}, value: hub.size }],
    );
    app.addHook('onClose', async () => unregister());
  }

  app.route({
    method: 'GET',
    url: '/events',
    config: { permission: 'transparency:read', object: { rule: 'none', why: 'public events in their public form' } },
    schema: {
      operationId: 'streamEvents',
      summary: 'Stream of public events (server-sent events)',
      description:
        'A `text/event-stream` of public events as they are recorded. Each event has `id` (its `seq` in the history), ' +
        '`event` (its kind) and `data` (JSON: `id`, `kind`, `occurredAt`, `data`, see the event catalogue). `kind` ' +
        'filters by kinds, comma-separated. Reconnect with the `Last-Event-ID` header (or `lastEventId`) to resume ' +
        `after that event from the history. A comment \`: heartbeat\` is sent every ${deps.sse.heartbeatMs / 1000} s ` +
        `on an idle stream. A client that falls ${deps.sse.maxQueued} events behind is disconnected and resumes.`,
      tags: TAGS,
      querystring: StreamQuery,
      headers: Type.Object({
        'last-event-id': Type.Optional(
          Type.String({ pattern: '^[0-9]{1,15}$', description: 'The last event received' }),
        ),
      }),
      response: {
        200: {
          description: 'The event stream',
          content: { 'text/event-stream': { schema: { type: 'string' }, example: STREAM_EXAMPLE } },
        },
        ...errorResponses(['VALIDATION_ERROR', 'UNAUTHORIZED', 'FORBIDDEN', 'RATE_LIMITED', 'INTERNAL']),
      },
    },
    handler: async (req, reply) => {
      const q = req.query as { kind?: string; lastEventId?: number };
      const header = req.headers['last-event-id'];
      const lastEventId = typeof header === 'string' && header !== '' ? Number(header) : q.lastEventId;
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      try {
        const client = await hub.connect(res, {
          ...(q.kind ? { kinds: q.kind } : {}),
          ...(lastEventId !== undefined ? { lastEventId } : {}),
        });
        // After the catch-up: from this line on the client receives every new event.
        client.send('retry: 2000\n\n');
      } catch (err) {
        req.log.warn({ err }, 'event stream could not start');
        res.end();
      }
    },
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/events/history',
    summary: 'History of public events',
    description:
      'Public events oldest first, as the stream sends them. `kind`: only these kinds (comma-separated); `after`: ' +
      `only events with a larger \`seq\`. \`page\` from 1, \`limit\` default ${PAGE_DEFAULTS.limit}, at most ` +
      `${PAGE_DEFAULTS.maxLimit}.`,
    tags: TAGS,
    policy: { permission: 'transparency:read', object: { rule: 'none', why: 'public events in their public form' } },
    subject: eventHistory,
    page: { item: PublicEvent },
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/audit',
    summary: 'Query the audit log',
    description:
      'Audit entries oldest first: every domain event (source `event`) and every action an ADMIN appended (source ' +
      '`admin`). Filters: `actor` (user id), `kind` (public event kind such as `plant.registered`, the event subject ' +
      'for internal events, `admin.<action>` for admin entries), `entity` (the record concerned), `from` (occurred ' +
      `at or after) and \`to\` (before). \`page\` from 1, \`limit\` default ${PAGE_DEFAULTS.limit}, at most ` +
      `${PAGE_DEFAULTS.maxLimit}. ADMIN only: entries hold event payloads. ${HASHING}`,
    tags: TAGS,
    policy: { permission: 'audit:read', object: { rule: 'none', why: 'auditors (audit:read) read every entry' } },
    subject: auditList,
    page: { item: AuditEntry },
  });

  busRoute(app, deps, {
    method: 'POST',
    url: '/audit',
    summary: 'Append an administrative action',
    description:
      'ADMIN only. Appends an entry `admin.<action>` with the caller as actor, the reason, the optional entity and ' +
      'details; answers the entry with its index and `prevHash`.',
    tags: TAGS,
    policy: {
      permission: 'transparency:write',
      idempotent: true,
      object: { rule: 'none', why: 'an entry of the platform' },
    },
    subject: auditAppend,
    status: 201,
    errors: ['IDEMPOTENCY_KEY_REUSED'],
    example: auditAppend.request.examples?.[0],
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/audit/verify',
    summary: 'Verify the whole audit log',
    description:
      'Re-reads every entry and recomputes its leaf hash, the hash chain and the Merkle root. `valid` is false when ' +
      'anything differs; `firstInvalidIndex` and `problems` name the entries that were changed.',
    tags: TAGS,
    policy: { permission: 'audit:read', object: { rule: 'none', why: 'the whole log' } },
    subject: auditVerify,
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/audit/:index',
    summary: 'Read an audit entry',
    description: `One entry by index. ADMIN only. ${HASHING}`,
    tags: TAGS,
    policy: {
      permission: 'audit:read',
      object: { rule: 'role', field: 'index', record: 'audit entry', why: 'auditors (audit:read)' },
    },
    subject: auditGet,
    errors: ['NOT_FOUND'],
  });

  busRoute(app, deps, {
    method: 'POST',
    url: '/webhooks',
    summary: 'Register a webhook',
    description: `The same as \`POST /api/webhooks\`. ${WEBHOOKS}`,
    tags: TAGS,
    policy: {
      permission: 'webhooks:manage',
      orgRole: 'manager',
      idempotent: true,
      object: { rule: 'own', why: 'a webhook of the caller' },
    },
    subject: webhookCreate,
    status: 201,
    errors: ['IDEMPOTENCY_KEY_REUSED'],
    example: webhookCreate.request.examples?.[0],
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/webhooks',
    summary: 'Your webhooks',
    description: 'The caller’s own webhooks (never their secrets), oldest first.',
    tags: TAGS,
    policy: { permission: 'webhooks:manage', orgRole: 'manager', object: { rule: 'own' } },
    subject: webhookList,
    page: { item: Webhook },
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/webhooks/:webhookId/deliveries',
    summary: 'Deliveries of a webhook',
    description:
      'Each event sent to the webhook, newest first: status (`pending`, `delivered`, `failed`), attempts, the last HTTP ' +
      'status or error, and the next attempt. Owner or ADMIN.',
    tags: TAGS,
    policy: {
      permission: 'webhooks:manage',
      orgRole: 'manager',
      object: { rule: 'owner', field: 'webhookId', record: 'webhook' },
    },
    subject: webhookDeliveryList,
    errors: ['NOT_FOUND'],
    page: { item: WebhookDelivery },
  });

  busRoute(app, deps, {
    method: 'DELETE',
    url: '/webhooks/:webhookId',
    summary: 'Delete a webhook',
    description: 'Deletes the webhook and its deliveries; nothing more is sent to it. Owner or ADMIN.',
    tags: TAGS,
    policy: {
      permission: 'webhooks:manage',
      orgRole: 'manager',
      object: { rule: 'owner', field: 'webhookId', record: 'webhook' },
    },
    subject: webhookDelete,
    errors: ['NOT_FOUND'],
  });
};

/** The spec's webhook registration, POST /api/webhooks. */
export const webhookRoutes: FastifyPluginAsyncTypebox<BusRouteDeps> = async (app, deps) => {
  busRoute(app, deps, {
    method: 'POST',
    url: '',
    operationId: 'registerWebhook',
    summary: 'Register a webhook',
    description: WEBHOOKS,
    tags: TAGS,
    policy: {
      permission: 'webhooks:manage',
      orgRole: 'manager',
      idempotent: true,
      object: { rule: 'own', why: 'a webhook of the caller' },
    },
    subject: webhookCreate,
    status: 201,
    errors: ['IDEMPOTENCY_KEY_REUSED'],
    example: webhookCreate.request.examples?.[0],
  });
};
