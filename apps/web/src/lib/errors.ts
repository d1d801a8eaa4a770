import { RootlineError } from '@rootline/sdk';

/** A field error as the envelope names it: `body/email`, `querystring/q`… */
export interface FieldError {
  field: string;
  message: string;
}

/** The error's message for a person. */
export function errorMessage(error: unknown): string {
  if (error instanceof RootlineError) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}

/** The field errors an answer's `error.details` carries (an array of {field, message}, or {field}). */
export function fieldErrors(error: unknown): FieldError[] {
  if (!(error instanceof RootlineError)) return [];
  const details = error.details;
  const list = Array.isArray(details) ? details : details && typeof details === 'object' ? [details] : [];
  return list
    .filter((d): d is { field: string; message?: string } => typeof (d as { field?: unknown }).field === 'string')
    .map((d) => ({ field: d.field, message: d.message ?? error.message }));
}

/** The message for one input: an error whose field ends with the input's name (`body/location/latitude`). */
export function errorFor(error: unknown, name: string): string | undefined {
  return fieldErrors(error).find((f) => f.field === name || f.field.endsWith(`/${name}`))?.message;
}

/** Whether the API refused for want of a session. */
export function isUnauthorized(error: unknown): boolean {
  return error instanceof RootlineError && error.status === 401;
}

/** Whether the API asked to slow down (429 RATE_LIMITED). */
export function isRateLimited(error: unknown): boolean {
  return error instanceof RootlineError && error.status === 429;
}

/** Seconds to wait before asking again: the answer's `Retry-After`, else its `details.retryAfterSeconds`, else 5. */
export function retryAfterSeconds(error: unknown): number {
  if (!(error instanceof RootlineError)) return 5;
  const fromDetails = (error.details as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
  const seconds = error.retryAfterSeconds ?? (typeof fromDetails === 'number' ? fromDetails : 5);
  return Math.min(Math.max(seconds, 1), 120);
}
