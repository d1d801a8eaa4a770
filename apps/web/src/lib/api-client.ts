import { createRootline, RootlineError } from '@rootline/sdk';
import { actingAs } from './acting-as';

/**
 * The one API client of the app: same origin, session cookie with its CSRF token on every state-changing
 * request (the SDK fetches the token once per session), acting for the organization this tab acts for, if any.
 */
export const api = createRootline({ baseUrl: window.location.origin, credentials: 'include', actAs: actingAs });

type Answer<T> = { data?: { data: T }; error?: unknown; response: Response };

/** The `data` of a successful answer; a failed one throws its RootlineError (code, message, details). */
export async function unwrap<T>(call: Promise<Answer<T>>): Promise<T> {
  const result = await call;
  if (!result.data) throw RootlineError.from(result);
  return result.data.data;
}

/** The `data` and `pagination` of a page of a list. */
export async function unwrapPage<T, P>(
  call: Promise<{ data?: { data: T; pagination: P }; error?: unknown; response: Response }>,
): Promise<{ items: T; pagination: P }> {
  const result = await call;
  if (!result.data) throw RootlineError.from(result);
  return { items: result.data.data, pagination: result.data.pagination };
}
