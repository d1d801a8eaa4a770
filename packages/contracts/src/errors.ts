import { type Static, Type } from '@sinclair/typebox';
import { Named } from './define.js';
import { type ErrorDetails, REFUSAL_REASONS } from './refusal-reasons.js';

/** Error codes of the interface spec, plus the few Rootline adds (listed last). */
export const ERROR_CODES = [
  'VALIDATION_ERROR',
  'NOT_FOUND',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'CHAIN_ERROR',
  'DUPLICATE',
  'RATE_LIMITED',
  // Rootline additions: a service did not answer in time, a body over the size limit, an unexpected failure,
  // a method the path does not support, a request line and headers over the size limit, an Idempotency-Key
  // sent again with another request body, a change the record's current state does not allow (a listing that is
  // sold, an offer already accepted), a well-formed request whose content fails a check (a witness's consistency proof).
  'UNAVAILABLE',
  'PAYLOAD_TOO_LARGE',
  'INTERNAL',
  'METHOD_NOT_ALLOWED',
  'HEADERS_TOO_LARGE',
  'IDEMPOTENCY_KEY_REUSED',
  'CONFLICT',
  'UNPROCESSABLE',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export const ErrorCodeSchema = Type.Union(
  ERROR_CODES.map((c) => Type.Literal(c)),
  { description: 'Machine-readable error code' },
);

export const ErrorBody = Named(
  'ErrorBody',
  Type.Object({
    code: ErrorCodeSchema,
    message: Type.String({ description: 'Human-readable explanation' }),
    details: Type.Optional(
      Type.Unknown({
        description:
          'Finer reasons: an object, or a list of one per failing field, with `field` (the failing field) and ' +
          '`reason`, a stable code for a client to word in its own language (ADR 260), one of: ' +
          REFUSAL_REASONS.map((r) => `\`${r}\``).join(', '),
        examples: [
          { field: 'buyerId', reason: 'not-self' },
          [{ field: 'body/quantity', reason: 'quantity-over-available' }],
        ],
      }),
    ),
  }),
);
export type ErrorBody = Static<typeof ErrorBody>;

/**
 * The one error type handlers throw. Its code is always one of ERROR_CODES; finer reasons go in details.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details?: ErrorDetails;

  /** `details.reason`, when given, is one of REFUSAL_REASONS: a client words the refusal by it. */
  constructor(code: ErrorCode, message: string, details?: ErrorDetails) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
  }

  /** The serialisable form that travels in bus replies and HTTP envelopes. */
  toBody(): ErrorBody {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }
}

/** True when a value is an AppError (also across module copies). */
export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError || (err instanceof Error && err.name === 'AppError' && 'code' in err);
}
