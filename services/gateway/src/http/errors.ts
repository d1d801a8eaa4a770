import { type ErrorBody, type ErrorCode, isAppError } from '@rootline/contracts';
import type { FastifyError, FastifySchemaValidationError } from 'fastify';
import { HTTP_STATUS } from './http-status.js';

/** What the client gets for an error, and whether it was a fault of ours (logged with its detail). */
export interface HttpError {
  status: number;
  body: ErrorBody;
  unexpected: boolean;
  /** Seconds for the Retry-After header: every UNAVAILABLE (a dependency down or slow) is worth a retry. */
  retryAfterSeconds?: number;
}

/** Retry-After of an UNAVAILABLE answer whose cause named no time of its own. */
export const DEFAULT_RETRY_AFTER_SECONDS = 1;

/** The only text a client sees for an unexpected failure: the detail may name internals. */
export const GENERIC_MESSAGE = 'Internal server error';

/** One failing input field, named by its place in the request, e.g. `body/location/latitude`. */
export interface ValidationIssue {
  field: string;
  message: string;
  /** For a value outside an enum (an event kind, a category…): the values the field accepts. */
  allowed?: unknown[];
}

/** Turns schema errors into issues that each name the field, including missing and unknown properties. */
export function validationIssues(errors: FastifySchemaValidationError[], dataVar: string): ValidationIssue[] {
  return errors.map((e) => {
    const at = `${dataVar}${e.instancePath ?? ''}`;
    const params = e.params as Record<string, unknown>;
    if (e.keyword === 'required' && typeof params.missingProperty === 'string') {
      return { field: `${at}/${params.missingProperty}`, message: 'is required' };
    }
    if (e.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
      return { field: `${at}/${params.additionalProperty}`, message: 'is not an accepted property' };
    }
    if (e.keyword === 'enum' && Array.isArray(params.allowedValues)) {
      return { field: at, message: e.message ?? 'is invalid', allowed: params.allowedValues };
    }
    return { field: at, message: e.message ?? 'is invalid' };
  });
}

/** Fastify's schemaErrorFormatter: a message such as `body/location/latitude must be <= 90`. */
export function formatValidationError(errors: FastifySchemaValidationError[], dataVar: string): Error {
  return new Error(
    validationIssues(errors, dataVar)
      .map((i) => `${i.field} ${i.message}`)
      .join(', '),
  );
}

const BY_CLIENT_STATUS: Readonly<Record<number, ErrorCode>> = {
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'DUPLICATE',
  413: 'PAYLOAD_TOO_LARGE',
  429: 'RATE_LIMITED',
};

function expected(code: ErrorCode, message: string, details?: unknown): HttpError {
  const body: ErrorBody = details === undefined ? { code, message } : { code, message, details };
  if (code !== 'UNAVAILABLE') return { status: HTTP_STATUS[code], body, unexpected: false };
  const named = (details as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
  const retryAfterSeconds =
    typeof named === 'number' && Number.isInteger(named) && named > 0 ? named : DEFAULT_RETRY_AFTER_SECONDS;
  return { status: HTTP_STATUS[code], body, unexpected: false, retryAfterSeconds };
}

const internal: HttpError = {
  status: HTTP_STATUS.INTERNAL,
  body: { code: 'INTERNAL', message: GENERIC_MESSAGE },
  unexpected: true,
};

function isFastifyError(err: unknown): err is FastifyError {
  return err instanceof Error && ('statusCode' in err || 'validation' in err);
}

/**
 * Maps anything thrown while serving a request to its envelope and status. Spec errors pass through;
 * Fastify's own client errors (parsing, validation, limits) become spec codes; everything else is INTERNAL
 * with a generic message.
 */
export function toHttpError(err: unknown): HttpError {
  if (isAppError(err)) {
    // An INTERNAL reply from a service may describe its internals; the client gets the generic text.
    if (err.code === 'INTERNAL') return internal;
    return expected(err.code, err.message, err.details);
  }
  if (!isFastifyError(err)) return internal;
  if (err.validation) {
    const issues = validationIssues(err.validation, err.validationContext ?? 'request');
    return expected('VALIDATION_ERROR', err.message, issues);
  }
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return expected('PAYLOAD_TOO_LARGE', 'Request body is larger than the accepted limit');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return expected('VALIDATION_ERROR', 'Unsupported content type: send application/json');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return expected('VALIDATION_ERROR', 'Request body is not valid JSON');
  }
  const status = err.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    // Fastify's and its plugins' client errors carry messages meant for the caller.
    return expected(BY_CLIENT_STATUS[status] ?? 'VALIDATION_ERROR', err.message);
  }
  return internal;
}
