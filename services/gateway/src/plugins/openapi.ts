import fastifySwagger from '@fastify/swagger';
import {
  ERROR_CODES,
  type ErrorBody,
  type ErrorCode,
  ErrorEnvelope,
  PASSWORD_POLICY,
  publicEvents,
  publicPayloadOf,
  ROLES,
} from '@rootline/contracts';
import { Type } from '@sinclair/typebox';
import type { onRouteHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { HTTP_STATUS } from '../http/http-status.js';
import { recordedExamples } from '../http/openapi-examples.js';
import { OPERATION_ID } from '../http/operation-id.js';
import { type AccessPolicy, type DocumentedForm, SESSION_COOKIE } from './auth.js';
import { liftNamedSchemas } from './named-schemas.js';

/** Name of the security scheme of bearer tokens in the OpenAPI document. */
export const BEARER_SCHEME = 'bearerAuth';
/** Name of the security scheme of the session cookie. */
export const COOKIE_SCHEME = 'cookieAuth';

const MEANING: Readonly<Record<ErrorCode, string>> = {
  VALIDATION_ERROR:
    'input validation failed (fields named in the message and in `details`, with the `allowed` values of an enum)',
  UNAUTHORIZED: 'authentication required, or the token is invalid or expired',
  FORBIDDEN: "the caller's role (or API token) lacks the operation's permission, or the CSRF token is missing",
  NOT_FOUND: 'resource or route not found',
  METHOD_NOT_ALLOWED: 'the path exists but not with this method; `Allow` lists the methods it supports',
  HEADERS_TOO_LARGE: 'request line (URL) and headers over 16 KB together',
  DUPLICATE: 'resource already exists',
  PAYLOAD_TOO_LARGE: 'request body over the size limit',
  RATE_LIMITED: 'too many requests',
  CHAIN_ERROR: 'ledger operation failed',
  INTERNAL: 'unexpected failure; the message is generic and the detail is only logged',
  UNAVAILABLE: 'a back-end service did not answer in time (with `Retry-After`)',
  IDEMPOTENCY_KEY_REUSED: 'the `Idempotency-Key` was already used with a different request body',
  UNPROCESSABLE:
    'the request is well-formed but what it carries fails a check (e.g. a consistency proof that does not verify)',
  CONFLICT:
    'the current state of the record does not allow the change (e.g. a sold listing, an answered offer, an agent move its state machine refuses)',
};

const ERROR_PREFIX = 'Error: ';

/** The document's tags, in the order viewers list them; every operation's tags are among these. */
export const TAGS: readonly { name: string; description: string }[] = [
  {
    name: 'Plants',
    description:
      'The plant registry: registration (with an account or anonymously), propagation, lineage, nearby and text search, network statistics.',
  },
  {
    name: 'Seed lots',
    description:
      'The seed inventory: lots of saved seed with their parent plants, quantity and storage, germination tests and expected viability by age.',
  },
  {
    name: 'Seed loans',
    description:
      'Seed lending: a library lends seed of a lot until the end of a season; the borrower returns seed saved from the plants grown from it as a new lot of the library. Each loan and return is a journey event on the ledger.',
  },
  {
    name: 'Imports',
    description:
      'CSV import of seed lots and plants (column mapping, dry run with every row’s problems by line, a key per row for idempotent re-import, progress) and CSV export in the same shape.',
  },
  {
    name: 'Places',
    description:
      'Geocoding: places by name from the bundled gazetteer (and a configured Nominatim-compatible geocoder); coordinates get their country and place on the machine itself.',
  },
  {
    name: 'Ledger',
    description: 'The proof-of-work ledger: blocks, block and chain verification, inclusion proofs, statistics.',
  },
  {
    name: 'Transport',
    description:
      'A plant’s journey from seed to seed, as transport events (modelled on EPCIS), handoffs, carbon footprint, QR codes, the public verification page and the EPCIS 2.0 query interface.',
  },
  {
    name: 'Agents',
    description: 'The lineage agent and the transport tracker: their state and controls, and what they find.',
  },
  {
    name: 'Demand',
    description:
      'Consumer preferences, demand signals, crop recommendations, forecasts, supply commitments and matches.',
  },
  {
    name: 'Marketplace',
    description: 'Listings, offers and their negotiation, seller profiles, recommendations and wishlists.',
  },
  {
    name: 'Environment',
    description:
      'Growing-environment records of a plant, its health score, recommendations, similar plants, comparisons and correlation analysis.',
  },
  {
    name: 'Vertical farming',
    description: 'Farms, zones, growing recipes, crop batches with their readings and harvests, and farm analytics.',
  },
  {
    name: 'Uploads',
    description: 'Images and documents attached to records: direct and presigned uploads, file information, deletion.',
  },
  {
    name: 'Notifications',
    description: 'In-app notifications, preferences per channel, web push subscriptions and email unsubscribe links.',
  },
  {
    name: 'Transparency',
    description:
      'Public events (history and stream), the append-only audit log and its proofs, webhooks, signatures, certificates, exports and reports; peers of this node and their mirrored logs.',
  },
  { name: 'Analytics', description: 'Aggregate figures of the network over time, and dataset exports.' },
  { name: 'Real-time', description: 'The WebSocket of live events: its connection ticket and statistics.' },
  { name: 'Privacy', description: 'Whether outgoing traffic goes through the anonymity network.' },
  {
    name: 'Authentication',
    description: 'Accounts, passwords, sessions, sign-in with a provider, CSRF tokens and API tokens.',
  },
  { name: 'Administration', description: 'Accounts and their roles, for administrators.' },
  { name: 'People', description: 'Display names of the accounts that records name by id.' },
  {
    name: 'Organizations',
    description:
      'Co-ops, seed libraries, farms with staff and companies: public profiles, members with roles (owner, ' +
      'manager, member, viewer) and invitations by email.',
  },
  {
    name: 'Transfers',
    description:
      'Ownership transfers of records (plants) between people and organizations: proposed by the owner, accepted ' +
      'or declined by the recipient, and on the ledger once accepted.',
  },
  { name: 'Operations', description: 'Liveness and readiness probes and Prometheus metrics, for monitoring.' },
];

/** The licence the API and its document are published under (LICENSE at the root of the repository). */
const LICENSE = { name: 'Apache License 2.0', identifier: 'Apache-2.0' };
/** Who answers for the API: whoever runs this installation, whose pages are under its public address. */
const CONTACT = { name: 'The operators of this Rootline installation' };

/** The `Idempotency-Key` request header, as documented on the operations that accept it (ADR 029). */
const IDEMPOTENCY_KEY_HEADER = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      pattern: '^[\\x21-\\x7e]{16,255}$',
      description:
        'A key of your choosing (16 to 255 visible ASCII characters, e.g. a random UUID) that makes a retry safe: ' +
        'the same key with the same body answers the first result again (`Idempotent-Replayed: true`) for 24 h; ' +
        'with another body, 422 IDEMPOTENCY_KEY_REUSED; while the first request is still running, 409 DUPLICATE.',
    }),
  ),
});

/** Name of the reusable parameter `Rootline-Act-As` under components/parameters (ADR 237). */
export const ACT_AS_PARAMETER = 'ActAs';

/** The `Rootline-Act-As` request header: acting for an organization, on every operation that takes a credential. */
const ACT_AS = {
  name: 'Rootline-Act-As',
  in: 'header' as const,
  required: false,
  description:
    'Acts for an organization the caller belongs to (docs/organizations.md): its id (`org_…`). The caller must be a ' +
    'member with the role viewer or above to read, member or above to change anything, read on this very request; ' +
    'otherwise 403 FORBIDDEN (`details.reason`: `not-a-member`, also for an unknown or dissolved organization, or ' +
    '`org-role` with `required` and `role`). A malformed id is 400 VALIDATION_ERROR. Records created while acting ' +
    'belong to the organization; its members touch its records as their organization role allows. Without the ' +
    'header a request acts for the account alone.',
  schema: {
    type: 'string' as const,
    pattern: '^org_[A-Za-z0-9]{10,40}$',
    examples: ['org_01HZX3K6Q2W8N4B7T5R9V0C1MD'],
  },
};

/** Adds the `Rootline-Act-As` parameter, by reference, to every operation that takes a credential. */
function addActAsParameter<T extends { paths?: object }>(doc: T): T {
  for (const methods of Object.values(doc.paths ?? {}) as Record<
    string,
    { security?: object[]; parameters?: object[] }
  >[]) {
    for (const op of Object.values(methods)) {
      if (typeof op !== 'object' || op === null || !op.security?.some((s) => Object.keys(s).length > 0)) continue;
      op.parameters = [...(op.parameters ?? []), { $ref: `#/components/parameters/${ACT_AS_PARAMETER}` }];
    }
  }
  return doc;
}

interface DocumentResponse {
  description?: string;
  content?: Record<string, { example?: unknown; examples?: Record<string, { summary: string; value: unknown }> }>;
}

/**
 * Gives every error response of the document one example per code it carries, as the gateway answers it (a
 * shared `$ref` schema has no room for them, and viewers used to show VALIDATION_ERROR with `data: {}` for all).
 */
function addErrorExamples<T extends { paths?: object }>(doc: T): T {
  for (const methods of Object.values(doc.paths ?? {}) as Record<string, { responses?: object }>[]) {
    for (const op of Object.values(methods)) {
      for (const response of Object.values(op.responses ?? {}) as DocumentResponse[]) {
        const media = response.content?.['application/json'];
        if (!media || !response.description?.startsWith(ERROR_PREFIX)) continue;
        const codes = response.description.slice(ERROR_PREFIX.length).split(', ') as ErrorCode[];
        media.examples = Object.fromEntries(
          codes.map((code) => [code, { summary: code, value: { success: false, data: null, error: EXAMPLE[code] } }]),
        );
      }
    }
  }
  return doc;
}

/**
 * Gives each success answer without a hand-written example the answer the example walk recorded for it, so every
 * operation shows what it returns.
 */
function addResponseExamples<T extends { paths?: object }>(doc: T): T {
  const recorded = recordedExamples();
  for (const methods of Object.values(doc.paths ?? {}) as Record<
    string,
    { operationId?: string; responses?: Record<string, DocumentResponse> }
  >[]) {
    for (const op of Object.values(methods)) {
      const example = op.operationId ? recorded[op.operationId] : undefined;
      const media = example ? op.responses?.[String(example.status)]?.content?.[example.type] : undefined;
      if (!example || !media || media.example !== undefined || media.examples) continue;
      media.examples = { recorded: { summary: 'An answer to the request example', value: example.value } };
    }
  }
  return doc;
}

/** Gives each operation that streams a multipart form its `multipart/form-data` request body. */
function addForms<T extends { paths?: object }>(doc: T, forms: ReadonlyMap<string, DocumentedForm>): T {
  for (const methods of Object.values(doc.paths ?? {}) as Record<
    string,
    { operationId?: string; requestBody?: unknown }
  >[]) {
    for (const op of Object.values(methods)) {
      const form = op.operationId ? forms.get(op.operationId) : undefined;
      if (!form) continue;
      op.requestBody = {
        required: true,
        content: {
          'multipart/form-data': { schema: form.schema, ...(form.encoding ? { encoding: form.encoding } : {}) },
        },
      };
    }
  }
  return doc;
}

/** The Standard Webhooks headers of every delivery, and Rootline's own. */
const WEBHOOK_HEADERS = [
  {
    name: 'webhook-id',
    description: 'The delivery id, the same on every retry of one delivery: drop a repeat you already handled.',
    schema: { type: 'string' },
  },
  {
    name: 'webhook-timestamp',
    description: 'When this attempt was sent, in Unix seconds: refuse one too far from your clock (a replay).',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  {
    name: 'webhook-signature',
    description:
      '`v1,` + base64 HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<body>`, keyed with the webhook secret ' +
      '(a `whsec_` secret stands for the bytes its base64 encodes): what the Standard Webhooks libraries verify.',
    schema: { type: 'string', pattern: '^v1,' },
  },
  {
    name: 'x-rootline-signature',
    description: 'The same value as the body’s `signature`.',
    schema: { type: 'string', pattern: '^sha256=[0-9a-f]{64}$' },
  },
  {
    name: 'x-rootline-event',
    description: 'The event kind, as the body’s `type` and `event`.',
    schema: { type: 'string' },
  },
].map((h) => ({ ...h, in: 'header', required: true }));

/**
 * The OpenAPI 3.1 `webhooks` section: one entry per public event kind, the POST a subscribed receiver gets, with
 * the delivery body `{ type, event, timestamp, data, signature }` whose `data` is the kind's public payload.
 */
function addWebhooks<T extends object>(doc: T): T & { webhooks: Record<string, unknown> } {
  const sorted = [...publicEvents()].sort((a, b) => a.kind.localeCompare(b.kind));
  const webhooks = Object.fromEntries(
    sorted.map((e) => [
      e.kind,
      {
        post: {
          operationId: `on${e.kind.replace(/(^|[.-])([a-z])/g, (_m, _s, c: string) => c.toUpperCase())}`,
          summary: `A ${e.kind} event`,
          description:
            `Sent to each webhook subscribed to \`${e.kind}\` (domain event \`${e.subject}\`). Answer 2xx to ` +
            'acknowledge; anything else, or no answer in time, is retried on the Standard Webhooks schedule, and 410 ' +
            'Gone disables the webhook.',
          tags: ['Transparency'],
          // The receiver authenticates a delivery by its signature headers, not by a credential of this API.
          security: [],
          parameters: WEBHOOK_HEADERS,
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: {
                    type: {
                      type: 'string',
                      const: e.kind,
                      description: 'The event kind, as the Standard Webhooks payload names it',
                    },
                    event: { type: 'string', const: e.kind, description: 'The event kind again (as `type`)' },
                    timestamp: { type: 'string', format: 'date-time', description: 'When the event occurred' },
                    data: { ...JSON.parse(JSON.stringify(publicPayloadOf(e))), description: 'The public payload' },
                    signature: {
                      type: 'string',
                      pattern: '^sha256=[0-9a-f]{64}$',
                      description:
                        '`sha256=` + hex HMAC-SHA256, keyed with the webhook secret, over the RFC 8785 canonical ' +
                        'JSON of `{ data, event, timestamp }`.',
                    },
                  },
                  required: ['type', 'event', 'timestamp', 'data', 'signature'],
                },
              },
            },
          },
          responses: {
            '200': { description: 'Received (any 2xx acknowledges the delivery)' },
            '410': { description: 'Gone: the webhook is disabled and no more deliveries are sent' },
          },
        },
      },
    ]),
  );
  return { ...doc, webhooks };
}

/** What each code's failure looks like, shown as the example of the responses that carry the code. */
const EXAMPLE: Readonly<Record<ErrorCode, ErrorBody>> = {
  VALIDATION_ERROR: {
    code: 'VALIDATION_ERROR',
    message: 'body/commonName must NOT have fewer than 1 characters',
    details: [{ field: 'body/commonName', message: 'must NOT have fewer than 1 characters' }],
  },
  UNAUTHORIZED: { code: 'UNAUTHORIZED', message: 'The token has expired' },
  FORBIDDEN: { code: 'FORBIDDEN', message: 'Role USER lacks the permission plants:write' },
  NOT_FOUND: { code: 'NOT_FOUND', message: 'Plant plt_01HZX3K6Q2W8N4B7T5R9V0C1MD not found' },
  METHOD_NOT_ALLOWED: {
    code: 'METHOD_NOT_ALLOWED',
    message: 'TRACE is not supported on /api/plants/network; it supports GET, HEAD',
  },
  DUPLICATE: { code: 'DUPLICATE', message: 'An account with this email address already exists' },
  CONFLICT: {
    code: 'CONFLICT',
    message: 'Cannot pause the transport tracker while it is stopped; allowed: start, run',
    details: { state: 'stopped', action: 'pause', allowedActions: ['start', 'run'] },
  },
  IDEMPOTENCY_KEY_REUSED: {
    code: 'IDEMPOTENCY_KEY_REUSED',
    message: 'This Idempotency-Key was already used with a different request body',
  },
  UNPROCESSABLE: {
    code: 'UNPROCESSABLE',
    message: 'The consistency proof from size 12 to size 20 does not verify',
  },
  PAYLOAD_TOO_LARGE: { code: 'PAYLOAD_TOO_LARGE', message: 'The request body is over the size limit' },
  HEADERS_TOO_LARGE: {
    code: 'HEADERS_TOO_LARGE',
    message: 'The request line and headers are over the size limit (16 KB)',
  },
  RATE_LIMITED: { code: 'RATE_LIMITED', message: 'Too many requests: retry in 42 s' },
  CHAIN_ERROR: { code: 'CHAIN_ERROR', message: 'The ledger could not record the transaction' },
  INTERNAL: { code: 'INTERNAL', message: 'Internal server error' },
  UNAVAILABLE: { code: 'UNAVAILABLE', message: 'The plants service did not answer in time' },
};

/** The areas the API offers, each with the tag its operations are listed under, as the description lists them. */
export const AREAS: readonly { area: string; tag: string; what: string }[] = [
  {
    area: 'Plants and lineage',
    tag: 'Plants',
    what: 'registration (with an account or anonymously), propagation, lineage and identification from photos under `/api/plants`.',
  },
  {
    area: 'Discovery',
    tag: 'Plants',
    what: 'nearby and text search of plants, network statistics under `/api/plants`.',
  },
  {
    area: 'Seed inventory',
    tag: 'Seed lots',
    what: 'seed lots with their parent plants, quantity, storage, germination tests and expected viability under `/api/seed-lots`.',
  },
  {
    area: 'Seed lending',
    tag: 'Seed loans',
    what:
      'loans of seed from a lot (`/api/seed-lots/{seedLotId}/loans`), their returns as new lots and the lists of ' +
      'open, overdue and returned loans under `/api/loans`.',
  },
  {
    area: 'Import and export',
    tag: 'Imports',
    what: 'CSV import of seed lots and plants as a job (`/api/imports`), CSV export of both in the same shape.',
  },
  {
    area: 'Places',
    tag: 'Places',
    what:
      'places by name (`/api/geocode`), from the bundled gazetteer and a configured geocoder; every stored ' +
      'location gets its country and place on the machine itself.',
  },
  {
    area: 'Ledger and verification',
    tag: 'Ledger',
    what: 'blocks, block and chain verification, inclusion proofs and statistics under `/api/chain`.',
  },
  {
    area: 'Transport and carbon',
    tag: 'Transport',
    what: 'transport events from seed to seed, handoffs, carbon footprint, QR codes and the verification page under `/api/transport`; the same events through the EPCIS 2.0 REST query interface under `/api/epcis`.',
  },
  {
    area: 'Demand planning',
    tag: 'Demand',
    what: 'preferences, demand signals, crop recommendations, forecasts, supply and matches under `/api/demand`.',
  },
  {
    area: 'Marketplace',
    tag: 'Marketplace',
    what: 'listings, offers, seller profiles, recommendations and wishlists under `/api/marketplace`.',
  },
  {
    area: 'Vertical farming',
    tag: 'Vertical farming',
    what: 'farms, zones, recipes, crop batches, readings and harvests under `/api/vertical-farm`.',
  },
  {
    area: 'Environment records',
    tag: 'Environment',
    what: 'growing-environment records, health scores, comparisons and analysis under `/api/environment`.',
  },
  { area: 'Uploads', tag: 'Uploads', what: 'images and documents, direct or presigned, under `/api/upload`.' },
  {
    area: 'Notifications',
    tag: 'Notifications',
    what: 'in-app notifications, preferences, web push and unsubscribe links under `/api/notifications`.',
  },
  {
    area: 'Transparency',
    tag: 'Transparency',
    what:
      'the audit log, public events (history and stream), webhooks, signatures, certificates, exports, reports and ' +
      'the dashboard under `/api/transparency` (and `/api/webhooks`); peers and their mirrored logs under ' +
      '`/api/federation`.',
  },
  { area: 'Real-time', tag: 'Real-time', what: 'the WebSocket of live events and its tickets under `/api/realtime`.' },
  {
    area: 'Agents',
    tag: 'Agents',
    what: 'the lineage agent and the transport tracker, their controls and findings under `/api/agents`.',
  },
  {
    area: 'Analytics',
    tag: 'Analytics',
    what: 'network figures over time and dataset exports under `/api/analytics`.',
  },
  { area: 'Privacy', tag: 'Privacy', what: 'the anonymity network status under `/api/privacy`.' },
  {
    area: 'Accounts and tokens',
    tag: 'Authentication',
    what: 'accounts, sessions, sign-in with a provider and API tokens under `/api/auth`.',
  },
  { area: 'Account administration', tag: 'Administration', what: 'accounts and their roles under `/api/admin`.' },
  { area: 'People', tag: 'People', what: 'display names of accounts by id under `/api/people`.' },
  {
    area: 'Organizations',
    tag: 'Organizations',
    what: 'organizations’ public profiles, members with roles and invitations under `/api/organizations`.',
  },
  {
    area: 'Ownership transfers',
    tag: 'Transfers',
    what: 'transfers of plants between people and organizations, and their answers, under `/api/transfers`.',
  },
  {
    area: 'Operations',
    tag: 'Operations',
    what: 'health probes under `/api/health` and Prometheus metrics at `/api/metrics`.',
  },
];

/** The API description: envelope, error codes and their statuses, authentication, limits, headers. */
export function apiDescription(
  perMinute: number,
  perHourPerUser: number,
  anonymousPerMinute: number,
  perMinutePerSession: number,
): string {
  const rows = (Object.keys(HTTP_STATUS) as ErrorCode[]).map((c) => `| ${c} | ${HTTP_STATUS[c]} | ${MEANING[c]} |`);
  return [
    'Plants and their lineage, recorded on a proof-of-work ledger. What this API offers, area by area, with the tag',
    'its operations are listed under:',
    ...AREAS.map((a) => `- **${a.area}** (tag *${a.tag}*): ${a.what}`),
    '',
    '## Response envelope',
    'Every JSON response is an envelope. Success: `{"success": true, "data": …, "error": null}`; list operations',
    'add `pagination` (`page`, `limit`, `total`, `totalPages`). Failure: `{"success": false, "data": null,',
    '"error": {"code": …, "message": …}}`, with `error.details` when there are finer reasons.',
    '',
    '## Error codes and HTTP status',
    '| Code | Status | Meaning |',
    '|---|---|---|',
    ...rows,
    '',
    'Malformed JSON and unsupported content types are VALIDATION_ERROR (400). DUPLICATE → 409 and',
    'RATE_LIMITED → 429 are this API’s choices.',
    '',
    '## Authentication',
    'Operations marked with a lock need a credential, sent one of three ways:',
    '- `Authorization: Bearer <JWT>`: the session token from `POST /api/auth/signin` (HS256; claims `sub`, `sid`,',
    `  \`role\` (${ROLES.join(', ')}), \`exp\`). It lasts 30 days and stops working at once when the session ends`,
    '  (`POST /api/auth/signout`, a password reset).',
    '- `Authorization: Bearer rlpat_…`: an API token from `POST /api/auth/tokens`, limited to its scopes.',
    `- the \`${SESSION_COOKIE}\` cookie (HttpOnly, SameSite=Lax, Secure over TLS) set at sign-in. A state-changing`,
    '  request (POST, PUT, PATCH, DELETE) authenticated by the cookie must also send `X-CSRF-Token` with the value',
    '  from `GET /api/auth/csrf`; bearer requests need no CSRF token.',
    '',
    "A missing, invalid, expired or ended credential gives 401 UNAUTHORIZED; a role or token without the operation's",
    'permission gives 403 FORBIDDEN. Each operation names its permission in `x-permission`; the role → permission',
    'table is in `docs/permissions.md`. The role always comes from the account, so a role change applies at once.',
    '',
    `Passwords: ${PASSWORD_POLICY}`,
    '',
    '## Rate limits',
    `API clients (requests with an \`Authorization\` header): ${perMinute} requests per minute per client IP address, and`,
    `${perHourPerUser} requests per hour per signed-in user. The web app's session cookie: ${perMinutePerSession} requests per`,
    `minute per session. Requests without a credential: ${anonymousPerMinute} requests per minute per client IP address.`,
    'Responses carry `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (when the window resets,',
    'as a Unix timestamp in seconds) of whichever limit is closer. Over a limit: 429 RATE_LIMITED with `Retry-After`',
    '(seconds). Sign-in, registration and forgot-password have tighter limits per IP and per account, and repeated',
    'failed sign-ins make further attempts wait (30 s, doubling, at most 15 min). The health probes',
    '(`/api/health/live`, `/api/health/ready`) and `/api/metrics` are not limited, so monitoring never locks itself out,',
    "nor are the web app's own pages and files (GET outside `/api`).",
    '',
    '## Request ids',
    'Send `x-request-id` (up to 128 letters, digits or `_.:-`) to follow a request through the logs; otherwise one',
    'is generated. Every response echoes it. A W3C `traceparent` header is passed on to the services.',
  ].join('\n');
}

/**
 * Error responses of an operation, grouped by status, each the shared error envelope. Codes that share a
 * status (CHAIN_ERROR and INTERNAL) share one response.
 */
export function errorResponses(codes: Iterable<ErrorCode>): Record<number, { $ref: string; description: string }> {
  const byStatus = new Map<number, ErrorCode[]>();
  const ordered = [...new Set(codes)].sort((a, b) => ERROR_CODES.indexOf(a) - ERROR_CODES.indexOf(b));
  for (const code of ordered) {
    const status = HTTP_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus]
      .sort(([a], [b]) => a - b)
      .map(([status, list]) => [
        status,
        { $ref: `${ErrorEnvelope.$id}#`, description: `${ERROR_PREFIX}${list.join(', ')}` },
      ]),
  );
}

export interface OpenApiOptions {
  perMinute: number;
  perHourPerUser: number;
  anonymousPerMinute: number;
  perMinutePerSession: number;
  publicUrl?: string | undefined;
}

/**
 * Collects every route's schema into an OpenAPI 3 document. Register before the routes. Security comes from
 * each route's declared policy, so the document cannot disagree with what the gateway enforces.
 */
export const openApiPlugin = fp<OpenApiOptions>(
  async (app, opts) => {
    app.addHook('onRoute', checkOperation(new Map()));
    // Multipart forms the routes stream themselves, by operationId: added to the document, never validated.
    const forms = new Map<string, DocumentedForm>();
    app.addSchema(ErrorEnvelope);
    await app.register(fastifySwagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Rootline API',
          version: '0.1.0',
          description: apiDescription(
            opts.perMinute,
            opts.perHourPerUser,
            opts.anonymousPerMinute,
            opts.perMinutePerSession,
          ),
          license: LICENSE,
          contact: opts.publicUrl ? { ...CONTACT, url: opts.publicUrl } : CONTACT,
        },
        // Without a public address, paths are relative to wherever the document was read from.
        servers: [{ url: opts.publicUrl ?? '/' }],
        tags: [...TAGS],
        components: {
          parameters: { [ACT_AS_PARAMETER]: ACT_AS },
          securitySchemes: {
            [BEARER_SCHEME]: {
              type: 'http',
              scheme: 'bearer',
              bearerFormat: 'JWT',
              description: 'Session JWT from POST /api/auth/signin, or an API token (rlpat_…)',
            },
            [COOKIE_SCHEME]: {
              type: 'apiKey',
              in: 'cookie',
              name: SESSION_COOKIE,
              description: 'Session cookie; state-changing requests also need X-CSRF-Token',
            },
          },
        },
      },
      refResolver: {
        // Shared schemas appear under their own name (components/schemas/ErrorEnvelope), not def-0.
        buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
      },
      transformObject: (documents) =>
        'openapiObject' in documents
          ? addActAsParameter(
              addWebhooks(
                addResponseExamples(addErrorExamples(addForms(liftNamedSchemas(documents.openapiObject), forms))),
              ),
            )
          : documents.swaggerObject,
      transform: ({ schema, url: routeUrl, route }) => {
        // A plugin's root route (`/api/webhooks/`) is served with and without the slash: documented without.
        const url = routeUrl.length > 1 ? routeUrl.replace(/\/$/, '') : routeUrl;
        const form = route.config?.documentedForm;
        if (form && typeof schema?.operationId === 'string') forms.set(schema.operationId, form);
        // Documentation only: the idempotency plugin checks the header itself, so it is not a validated schema.
        const documented = route.config?.idempotent ? { ...schema, headers: IDEMPOTENCY_KEY_HEADER } : schema;
        const permission = route.config?.permission;
        const credentials: Record<string, string[]>[] = [{ [BEARER_SCHEME]: [] }, { [COOKIE_SCHEME]: [] }];
        // A public read that names the caller when a credential comes along: no credential, or either one.
        if (!permission && route.config?.identifiesCaller) {
          return { schema: { ...documented, security: [{}, ...credentials] }, url };
        }
        if (!permission) return { schema: { ...documented, security: [] }, url };
        const security = credentials;
        return { schema: { ...documented, security, 'x-permission': permission }, url };
      },
    });
  },
  { name: 'rootline-openapi' },
);

/**
 * Refuses to start when a documented route has no well-formed operationId, or one another route has (client
 * generators name their methods by it, and two operations of one name cannot both be generated), or a tag the
 * document does not describe.
 */
function checkOperation(seen: Map<string, string>): onRouteHookHandler {
  const tags = new Set(TAGS.map((t) => t.name));
  return (route) => {
    const schema = route.schema as { hide?: boolean; operationId?: unknown; tags?: string[] } | undefined;
    // HEAD routes Fastify adds beside GET routes are not documented.
    if (schema?.hide || route.method === 'HEAD') return;
    const where = `${String(route.method)} ${route.url}`;
    const id = schema?.operationId;
    if (typeof id !== 'string' || !OPERATION_ID.test(id)) {
      throw new Error(`${where} needs an operationId matching ${OPERATION_ID} (got ${String(id)})`);
    }
    const other = seen.get(id);
    if (other) throw new Error(`${where} has operationId ${id}, which ${other} already has`);
    seen.set(id, where);
    const unknown = (schema?.tags ?? []).filter((t) => !tags.has(t));
    if (unknown.length > 0) throw new Error(`${where} has tags the document does not describe: ${unknown.join(', ')}`);
  };
}

/** Error codes any operation can produce from the gateway itself, given what it declares. */
export function gatewayErrorCodes(parts: {
  body?: unknown;
  params?: unknown;
  querystring?: unknown;
  policy: AccessPolicy;
}): ErrorCode[] {
  const codes: ErrorCode[] = ['RATE_LIMITED', 'INTERNAL'];
  if (parts.body || parts.params || parts.querystring) codes.push('VALIDATION_ERROR');
  if (parts.body) codes.push('PAYLOAD_TOO_LARGE');
  if ('permission' in parts.policy) codes.push('UNAUTHORIZED', 'FORBIDDEN');
  return codes;
}

/** What an operation's route schema is made of. */
export interface OperationParts {
  /** The operation's name for client generators (see `operation-id.ts`). */
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  body?: object | undefined;
  params?: object | undefined;
  querystring?: object | undefined;
  /** A request body shown in the documentation. */
  example?: unknown;
  status: number;
  /** Schema of the success envelope. */
  success: object;
  /** The success answer's media type when it is not JSON (a page, say). */
  mediaType?: string;
  /** Every error code the operation may answer with. */
  errors: ErrorCode[];
}

/** The Fastify route schema of an operation: validation of its parts, and its documentation. */
export function operationSchema(op: OperationParts) {
  const body = op.body && op.example !== undefined ? { ...op.body, examples: [op.example] } : op.body;
  return {
    operationId: op.operationId,
    summary: op.summary,
    description: op.description,
    tags: op.tags,
    ...(body ? { body } : {}),
    ...(op.params ? { params: op.params } : {}),
    ...(op.querystring ? { querystring: op.querystring } : {}),
    response: {
      [op.status]: op.mediaType
        ? { description: 'Success', content: { [op.mediaType]: { schema: op.success } } }
        : { ...op.success, description: 'Success' },
      ...errorResponses(op.errors),
    },
  };
}
