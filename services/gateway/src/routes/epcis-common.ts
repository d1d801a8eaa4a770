import { EPCIS_CAPTURE_FILE_SIZE_LIMIT, EPCIS_CAPTURE_LIMIT, type ErrorCode } from '@rootline/contracts';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toHttpError } from '../http/errors.js';

/** What the EPCIS routes (query and capture) share: their headers and the standard's error model. */

/** The EPCIS and CBV versions the interface speaks (the standard's `GS1-EPCIS-Version` and `GS1-CBV-Version`). */
export const VERSION_HEADERS = { 'GS1-EPCIS-Version': '2.0.0', 'GS1-CBV-Version': '2.0.0' };

/** The capture interface's limits, as the standard's headers advertise them (on OPTIONS and every capture answer). */
export const CAPTURE_LIMIT_HEADERS = {
  'GS1-EPCIS-Capture-Limit': String(EPCIS_CAPTURE_LIMIT),
  'GS1-EPCIS-Capture-File-Size-Limit': String(EPCIS_CAPTURE_FILE_SIZE_LIMIT),
};
export const CAPTURE_LIMIT_DOC_HEADERS = {
  'GS1-EPCIS-Capture-Limit': { type: 'string', description: 'Most events one capture may hold' },
  'GS1-EPCIS-Capture-File-Size-Limit': { type: 'string', description: 'Most bytes one capture may have' },
};

/**
 * The standard's problem types (EPCIS 2.0 OpenAPI, RFC 7807) for the errors these routes answer: a refused query
 * parameter is a QueryParameterException, an unknown EPC a NoSuchResourceException, a refused credential a
 * SecurityException, and anything on our side an ImplementationException.
 */
const PROBLEM_TYPES: Partial<Record<ErrorCode, string>> = {
  VALIDATION_ERROR: 'epcisException:QueryParameterException',
  NOT_FOUND: 'epcisException:NoSuchResourceException',
  UNAUTHORIZED: 'epcisException:SecurityException',
  FORBIDDEN: 'epcisException:SecurityException',
  CONFLICT: 'epcisException:ValidationException',
  // The standard names no type for it: RFC 7807's own, whose title is the status's.
  RATE_LIMITED: 'about:blank',
};
const IMPLEMENTATION = 'epcisException:ImplementationException';

/**
 * The capture routes' types where they differ: a refused document is a ValidationException, one over the limits a
 * CaptureLimitExceededException (the standard's 413).
 */
const CAPTURE_PROBLEM_TYPES: Partial<Record<ErrorCode, string>> = {
  VALIDATION_ERROR: 'epcisException:ValidationException',
  PAYLOAD_TOO_LARGE: 'epcisException:CaptureLimitExceededException',
  NOT_FOUND: 'epcisException:NoSuchNameException',
};

const TITLES: Record<number, string> = {
  400: 'Invalid query parameter',
  401: 'Unauthorised request',
  403: 'Access to resource forbidden',
  404: 'Resource not found',
  409: 'Conflict',
  413: 'Capture payload too large',
  415: 'Unsupported Media Type',
  429: 'Too many requests',
  500: 'Implementation exception',
  503: 'Service unavailable',
};

/** An RFC 7807 problem as the EPCIS 2.0 OpenAPI describes it, with Rootline's error code and details beside. */
export const EpcisProblem = Type.Object(
  {
    type: Type.String({ description: 'The problem type: `epcisException:<name>` of the EPCIS 2.0 standard' }),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.Optional(Type.String()),
    instance: Type.Optional(Type.String()),
    code: Type.String({ description: 'Rootline’s error code (docs: the error envelope of the other routes)' }),
    details: Type.Optional(Type.Unknown()),
  },
  { description: 'An RFC 7807 problem (`application/problem+json`), as EPCIS 2.0 defines it' },
);

const isCapture = (req: FastifyRequest) => (req.routeOptions.url ?? req.url).startsWith('/api/epcis/capture');

/** A subscription's refused controls (`dest`, `stream`, …) are the standard's SubscriptionControlsException. */
const SUBSCRIPTION_PROBLEM_TYPES: Partial<Record<ErrorCode, string>> = {
  VALIDATION_ERROR: 'epcisException:SubscriptionControlsException',
};
const isSubscription = (req: FastifyRequest) => (req.routeOptions.url ?? '').includes('/subscriptions');

/** Sends the problem for anything thrown while serving an EPCIS route. */
export function sendProblem(err: unknown, req: FastifyRequest, reply: FastifyReply): FastifyReply {
  const { status, body, unexpected, retryAfterSeconds } = toHttpError(err);
  const capture = isCapture(req);
  const types = capture
    ? { ...PROBLEM_TYPES, ...CAPTURE_PROBLEM_TYPES }
    : isSubscription(req)
      ? { ...PROBLEM_TYPES, ...SUBSCRIPTION_PROBLEM_TYPES }
      : PROBLEM_TYPES;
  const title = capture && status === 400 ? 'Invalid EPCIS document' : TITLES[status];
  if (capture) reply.headers(CAPTURE_LIMIT_HEADERS);
  if (retryAfterSeconds !== undefined) reply.header('retry-after', retryAfterSeconds);
  if (unexpected) reply.log.error({ err }, 'unexpected error');
  else if (status >= 500) reply.log.warn({ code: body.code, details: body.details }, body.message);
  const problem = {
    type: status === 415 ? IMPLEMENTATION : (types[body.code] ?? IMPLEMENTATION),
    title: title ?? 'Error',
    status,
    detail: body.message,
    instance: req.url,
    code: body.code,
    ...(body.details !== undefined ? { details: body.details } : {}),
  };
  return reply
    .code(status)
    .headers(VERSION_HEADERS)
    .type('application/problem+json; charset=utf-8')
    .send(JSON.stringify(problem));
}

/** The documented error responses of an EPCIS route: one problem per status, with an example. */
export function problemResponses(
  codes: Record<number, ErrorCode>,
  capture = false,
  subscription = false,
): Record<number, unknown> {
  const types = capture
    ? { ...PROBLEM_TYPES, ...CAPTURE_PROBLEM_TYPES }
    : subscription
      ? { ...PROBLEM_TYPES, ...SUBSCRIPTION_PROBLEM_TYPES }
      : PROBLEM_TYPES;
  return Object.fromEntries(
    Object.entries(codes).map(([status, code]) => {
      const type = Number(status) === 415 ? IMPLEMENTATION : (types[code] ?? IMPLEMENTATION);
      const title = capture && Number(status) === 400 ? 'Invalid EPCIS document' : TITLES[Number(status)];
      const detail =
        code !== 'VALIDATION_ERROR'
          ? code
          : capture
            ? '/epcisBody/eventList/0: must have required property eventTime'
            : subscription
              ? 'stream: a subscription is streamed (stream: true)'
              : 'EQ_bizLocation: x is not a geo URI (geo:<lat>,<lon>)';
      return [
        status,
        {
          description: `${title} (RFC 7807 problem, type ${type})`,
          ...(capture && Number(status) === 413 ? { headers: CAPTURE_LIMIT_DOC_HEADERS } : {}),
          content: {
            'application/problem+json': {
              schema: EpcisProblem,
              example: {
                type,
                title,
                status: Number(status),
                detail,
                instance: capture
                  ? '/api/epcis/capture'
                  : subscription
                    ? '/api/epcis/queries/shipped-this-season/subscriptions'
                    : '/api/epcis/events',
                code,
              },
            },
          },
        },
      ];
    }),
  );
}
