import fastifySwagger from '@fastify/swagger';
import { ERROR_CODES, type ErrorCode, ErrorEnvelope, ROLES } from '@rootline/contracts';
import fp from 'fastify-plugin';
import { HTTP_STATUS } from '../http-status.js';

/** Name of the security scheme of bearer tokens in the OpenAPI document. */
export const BEARER_SCHEME = 'bearerAuth';

const MEANING: Readonly<Record<ErrorCode, string>> = {
  VALIDATION_ERROR: 'input validation failed (fields named in the message and in `details`)',
  UNAUTHORIZED: 'authentication required, or the token is invalid or expired',
  FORBIDDEN: "the caller's role lacks the operation's permission",
  NOT_FOUND: 'resource or route not found',
  DUPLICATE: 'resource already exists',
  PAYLOAD_TOO_LARGE: 'request body over the size limit',
  RATE_LIMITED: 'too many requests',
  CHAIN_ERROR: 'ledger operation failed',
  INTERNAL: 'unexpected failure; the message is generic and the detail is only logged',
  UNAVAILABLE: 'a back-end service did not answer in time',
};

/** The API description: envelope, error codes and their statuses, authentication, limits, headers. */
export function apiDescription(perMinute: number): string {
  const rows = (Object.keys(HTTP_STATUS) as ErrorCode[]).map((c) => `| ${c} | ${HTTP_STATUS[c]} | ${MEANING[c]} |`);
  return [
    'Plant lineage on a proof-of-work ledger, transport, demand, farming and environment data.',
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
    'Operations marked with a lock need `Authorization: Bearer <token>`: a JWT signed with HS256 carrying',
    `\`sub\` (user id), \`role\` (${ROLES.join(', ')}) and \`exp\`. A missing, invalid or expired token gives`,
    "401 UNAUTHORIZED; a role without the operation's permission gives 403 FORBIDDEN.",
    '',
    '## Rate limits',
    `${perMinute} requests per minute per client IP address. Responses carry \`X-RateLimit-Limit\`,`,
    '`X-RateLimit-Remaining` and `X-RateLimit-Reset` (when the window resets, as a Unix timestamp in seconds).',
    'Over the limit: 429 RATE_LIMITED with `Retry-After` (seconds). The health probes (`/api/health/live`,',
    '`/api/health/ready`) and `/api/metrics` are not limited, so monitoring never locks itself out.',
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
      .map(([status, list]) => [status, { $ref: `${ErrorEnvelope.$id}#`, description: `Error: ${list.join(', ')}` }]),
  );
}

export interface OpenApiOptions {
  perMinute: number;
  publicUrl?: string | undefined;
}

/**
 * Collects every route's schema into an OpenAPI 3 document. Register before the routes. Security comes from
 * each route's declared policy, so the document cannot disagree with what the gateway enforces.
 */
export const openApiPlugin = fp<OpenApiOptions>(
  async (app, opts) => {
    app.addSchema(ErrorEnvelope);
    await app.register(fastifySwagger, {
      openapi: {
        openapi: '3.0.3',
        info: { title: 'Rootline API', version: '0.1.0', description: apiDescription(opts.perMinute) },
        ...(opts.publicUrl ? { servers: [{ url: opts.publicUrl }] } : {}),
        components: {
          securitySchemes: { [BEARER_SCHEME]: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
        },
      },
      refResolver: {
        // Shared schemas appear under their own name (components/schemas/ErrorEnvelope), not def-0.
        buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
      },
      transform: ({ schema, url, route }) => {
        const security = route.config?.public ? [] : [{ [BEARER_SCHEME]: [] }];
        return { schema: { ...schema, security }, url };
      },
    });
  },
  { name: 'rootline-openapi' },
);
