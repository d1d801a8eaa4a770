import { createHmac } from 'node:crypto';
import { safeEqual } from './secrets.js';

/** Header that carries the CSRF token on state-changing requests authenticated by the session cookie. */
export const CSRF_HEADER = 'x-csrf-token';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** True for methods that may change state (everything but GET, HEAD and OPTIONS). */
export function isStateChanging(method: string): boolean {
  return !SAFE_METHODS.has(method.toUpperCase());
}

/**
 * The CSRF token of a session: an HMAC of the session id under a key derived from the server secret. It is
 * bound to the session (useless with another), needs no storage, and changes at every sign-in.
 */
export function csrfTokenFor(key: Buffer, sessionId: string): string {
  return createHmac('sha256', key).update(`csrf:${sessionId}`).digest('base64url');
}

/** Checks a presented CSRF token against the session's, in constant time. */
export function csrfTokenMatches(key: Buffer, sessionId: string, presented: string | undefined): boolean {
  return typeof presented === 'string' && safeEqual(csrfTokenFor(key, sessionId), presented);
}
