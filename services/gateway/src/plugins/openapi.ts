import fastifySwagger from '@fastify/swagger';
import { ERROR_CODES, type ErrorCode, ErrorEnvelope, PASSWORD_POLICY, ROLES } from '@rootline/contracts';
import fp from 'fastify-plugin';
import { HTTP_STATUS } from '../http-status.js';
import { type RoutePolicy, SESSION_COOKIE } from './auth.js';

/** Name of the security scheme of bearer tokens in the OpenAPI document. */
export const BEARER_SCHEME = 'bearerAuth';
/** Name of the security scheme of the session cookie. */
export const COOKIE_SCHEME = 'cookieAuth';

const MEANING: Readonly<Record<ErrorCode, string>> = {
  VALIDATION_ERROR: 'input validation failed (fields named in the message and in `details`)',
  UNAUTHORIZED: 'authentication required, or the token is invalid or expired',
  FORBIDDEN: "the caller's role (or API token) lacks the operation's permission, or the CSRF token is missing",
  NOT_FOUND: 'resource or route not found',
  DUPLICATE: 'resource already exists',
  PAYLOAD_TOO_LARGE: 'request body over the size limit',
  RATE_LIMITED: 'too many requests',
  CHAIN_ERROR: 'ledger operation failed',
  INTERNAL: 'unexpected failure; the message is generic and the detail is only logged',
  UNAVAILABLE: 'a back-end service did not answer in time (with `Retry-After`)',
  IDEMPOTENCY_KEY_REUSED: 'the `Idempotency-Key` was already used with a different request body',
};

/** The API description: envelope, error codes and their statuses, authentication, limits, headers. */
export function apiDescription(perMinute: number, perHourPerUser: number): string {
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
    `${perMinute} requests per minute per client IP address, and ${perHourPerUser} requests per hour per signed-in user.`,
    'Responses carry `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (when the window resets,',
    'as a Unix timestamp in seconds) of whichever limit is closer. Over a limit: 429 RATE_LIMITED with `Retry-After`',
    '(seconds). Sign-in, registration and forgot-password have tighter limits per IP and per account, and repeated',
    'failed sign-ins make further attempts wait (30 s, doubling, at most 15 min). The health probes',
    '(`/api/health/live`, `/api/health/ready`) and `/api/metrics` are not limited, so monitoring never locks itself out.',
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
  perHourPerUser: number;
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
        info: {
          title: 'Rootline API',
          version: '0.1.0',
          description: apiDescription(opts.perMinute, opts.perHourPerUser),
        },
        ...(opts.publicUrl ? { servers: [{ url: opts.publicUrl }] } : {}),
        components: {
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
      transform: ({ schema, url, route }) => {
        const permission = route.config?.permission;
        if (!permission) return { schema: { ...schema, security: [] }, url };
        const security: Record<string, string[]>[] = [{ [BEARER_SCHEME]: [] }, { [COOKIE_SCHEME]: [] }];
        return { schema: { ...schema, security, 'x-permission': permission }, url };
      },
    });
  },
  { name: 'rootline-openapi' },
);

/** Error codes any operation can produce from the gateway itself, given what it declares. */
export function gatewayErrorCodes(parts: {
  body?: unknown;
  params?: unknown;
  querystring?: unknown;
  policy: RoutePolicy;
}): ErrorCode[] {
  const codes: ErrorCode[] = ['RATE_LIMITED', 'INTERNAL'];
  if (parts.body || parts.params || parts.querystring) codes.push('VALIDATION_ERROR');
  if (parts.body) codes.push('PAYLOAD_TOO_LARGE');
  if ('permission' in parts.policy) codes.push('UNAUTHORIZED', 'FORBIDDEN');
  return codes;
}

/** What an operation's route schema is made of. */
export interface OperationParts {
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
  /** Every error code the operation may answer with. */
  errors: ErrorCode[];
}

/** The Fastify route schema of an operation: validation of its parts, and its documentation. */
export function operationSchema(op: OperationParts) {
  const body = op.body && op.example !== undefined ? { ...op.body, examples: [op.example] } : op.body;
  return {
    summary: op.summary,
    description: op.description,
    tags: op.tags,
    ...(body ? { body } : {}),
    ...(op.params ? { params: op.params } : {}),
    ...(op.querystring ? { querystring: op.querystring } : {}),
    response: { [op.status]: { ...op.success, description: 'Success' }, ...errorResponses(op.errors) },
  };
}
