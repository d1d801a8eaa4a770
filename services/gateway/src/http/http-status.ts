import type { ErrorCode } from '@rootline/contracts';

/**
 * The one table from error code to HTTP status. DUPLICATE → 409 and RATE_LIMITED → 429 are Rootline's
 * choices (the spec leaves them open), as are CONFLICT → 409 (the state of the record forbids the change) and IDEMPOTENCY_KEY_REUSED → 422 (the IETF idempotency-key draft's
 * status for a key reused with another payload); every other pairing follows the spec's status list.
 */
export const HTTP_STATUS: Readonly<Record<ErrorCode, number>> = {
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  DUPLICATE: 409,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  IDEMPOTENCY_KEY_REUSED: 422,
  UNPROCESSABLE: 422,
  RATE_LIMITED: 429,
  HEADERS_TOO_LARGE: 431,
  CHAIN_ERROR: 500,
  INTERNAL: 500,
  UNAVAILABLE: 503,
};

/** Error codes answered with the given status, e.g. 500 → CHAIN_ERROR, INTERNAL. */
export function codesWithStatus(status: number): ErrorCode[] {
  return (Object.keys(HTTP_STATUS) as ErrorCode[]).filter((code) => HTTP_STATUS[code] === status);
}
