import createClient, { type Client, type ClientOptions, type Middleware } from 'openapi-fetch';
import type { paths } from './generated/schema.js';

/** The request header of idempotent POSTs (ADR 029). */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** The header that makes a request act for an organization the caller belongs to (docs/organizations.md). */
export const ACT_AS_HEADER = 'Rootline-Act-As';
/** The header that carries the CSRF token on state-changing requests authenticated by the session cookie. */
export const CSRF_HEADER = 'X-CSRF-Token';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface RootlineOptions {
  /** Where the API is, e.g. `http://localhost:3000` (paths start with /api). */
  baseUrl: string;
  /** A session token (from sign-in) or an API token (`rlpat_…`), sent as `Authorization: Bearer`. */
  token?: string;
  /**
   * `'include'` for cookie mode (browsers): the session cookie authenticates, and state-changing requests carry
   * the session's CSRF token, fetched once from `GET /api/auth/csrf`.
   */
  credentials?: RequestInit['credentials'];
  /** A fetch of your own (default: globalThis.fetch). */
  fetch?: ClientOptions['fetch'];
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /**
   * The organization (`org_…`) requests act for, sent as `Rootline-Act-As`; null or undefined for the caller alone.
   * A function is asked on every request (a browser tab's choice that may change), a string fixes it. One call
   * acts for the caller alone when it sends the header empty (`headers: { 'Rootline-Act-As': '' }`).
   */
  actAs?: string | null | (() => string | null | undefined);
}

export type SignInResult = NonNullable<
  paths['/api/auth/signin']['post']['responses'][200]['content']['application/json']['data']
>;

/** The typed client of every API operation (openapi-fetch: `GET`, `POST`… by path), plus sessions. */
export interface RootlineClient extends Client<paths> {
  /** Signs in with email and password; in bearer mode the client keeps the session token for later calls. */
  signIn(email: string, password: string): Promise<SignInResult>;
  /** The bearer token the client sends, if any. */
  readonly token: string | undefined;
  /** Sets (or with undefined, clears) the bearer token. */
  setToken(token: string | undefined): void;
}

function actingFor(actAs: RootlineOptions['actAs']): string | null | undefined {
  return typeof actAs === 'function' ? actAs() : actAs;
}

/** A failed call, with the API's error code and message. */
export class RootlineError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    /** Seconds to wait before asking again, from the answer's `Retry-After` (a 429 or a 503). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'RootlineError';
  }

  /** The error of a failed openapi-fetch answer (`{ error, response }`). */
  static from(result: { error?: unknown; response: Response }): RootlineError {
    const body = result.error as { error?: { code?: string; message?: string; details?: unknown } } | undefined;
    const e = body?.error;
    return new RootlineError(
      result.response.status,
      e?.code ?? 'HTTP_ERROR',
      e?.message ?? `HTTP ${result.response.status}`,
      e?.details,
      retryAfterOf(result.response.headers.get('retry-after')),
    );
  }
}

/** `Retry-After` in seconds (a number of seconds, or an HTTP date); undefined when absent or unreadable. */
function retryAfterOf(header: string | null): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds));
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** A fresh Idempotency-Key (a random UUID: 36 visible ASCII characters, as the API asks). */
export function idempotencyKey(): string {
  return crypto.randomUUID();
}

/**
 * Creates a client. Every POST carries an `Idempotency-Key` (a fresh one per call unless you pass your own in
 * `headers`), so a POST retried with the same key is answered once (see `withRetry`).
 */
export function createRootline(options: RootlineOptions): RootlineClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const client = createClient<paths>({
    baseUrl,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.credentials ? { credentials: options.credentials } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
  });
  let token = options.token;
  const cookieMode = options.credentials === 'include' && token === undefined;
  let csrf: Promise<string | null> | null = null;

  const fetchCsrf = async (): Promise<string | null> => {
    const { data } = await client.GET('/api/auth/csrf');
    return data?.data?.csrfToken ?? null;
  };

  const middleware: Middleware = {
    async onRequest({ request }) {
      const method = request.method.toUpperCase();
      if (method === 'POST' && !request.headers.has(IDEMPOTENCY_HEADER)) {
        request.headers.set(IDEMPOTENCY_HEADER, idempotencyKey());
      }
      // A call that sends the header empty acts for the caller alone, whatever the client acts for.
      if (request.headers.get(ACT_AS_HEADER) === '') request.headers.delete(ACT_AS_HEADER);
      else if (!request.headers.has(ACT_AS_HEADER)) {
        const org = actingFor(options.actAs);
        if (org) request.headers.set(ACT_AS_HEADER, org);
      }
      if (token !== undefined) {
        if (!request.headers.has('Authorization')) request.headers.set('Authorization', `Bearer ${token}`);
      } else if (cookieMode && STATE_CHANGING.has(method) && !request.headers.has(CSRF_HEADER)) {
        // A token that could not be fetched (offline, the gateway unreachable) is asked for again next time.
        csrf ??= fetchCsrf().catch((err: unknown) => {
          csrf = null;
          throw err;
        });
        const value = await csrf;
        if (value === null)
          csrf = null; // No session yet: ask again next time.
        else request.headers.set(CSRF_HEADER, value);
      }
      return request;
    },
  };
  client.use(middleware);

  const signIn = async (email: string, password: string): Promise<SignInResult> => {
    const result = await client.POST('/api/auth/signin', { body: { email, password } });
    if (!result.data) throw RootlineError.from(result);
    if (cookieMode)
      csrf = null; // A new session has a new CSRF token.
    else token = result.data.data.token;
    return result.data.data;
  };
  return Object.defineProperties(client as RootlineClient, {
    signIn: { value: signIn },
    token: { get: () => token, enumerable: true },
    setToken: {
      value: (next: string | undefined) => {
        token = next;
      },
    },
  });
}

export interface RetryOptions {
  /** The Idempotency-Key every attempt sends (default: a fresh one, the same for all attempts). */
  key?: string;
  /** Attempts in all (default 3). */
  attempts?: number;
  /** Wait before the second attempt, doubled after each (default 500 ms); a `Retry-After` answer takes precedence. */
  delayMs?: number;
  /** The longest wait between attempts (default 30 s). */
  maxDelayMs?: number;
}

/** Answers worth another attempt: timeouts, rate limits, the first request still running, the API unavailable. */
const RETRYABLE = new Set([408, 409, 429, 500, 502, 503, 504]);

/**
 * Runs a call, retrying it on a network failure or a retryable status with the same `Idempotency-Key`, so the
 * operation happens at most once: `withRetry((headers) => client.POST('/api/plants/register', { body, headers }))`.
 * A 409 is retried only while the API says the first request with the key is still running.
 */
export async function withRetry<R extends { response: Response; error?: unknown }>(
  call: (headers: { [IDEMPOTENCY_HEADER]: string }) => Promise<R>,
  options: RetryOptions = {},
): Promise<R> {
  const headers = { [IDEMPOTENCY_HEADER]: options.key ?? idempotencyKey() };
  const attempts = options.attempts ?? 3;
  let delay = options.delayMs ?? 500;
  const maxDelay = options.maxDelayMs ?? 30_000;
  for (let attempt = 1; ; attempt++) {
    let result: R | undefined;
    try {
      result = await call(headers);
    } catch (err) {
      if (attempt >= attempts) throw err;
    }
    if (result && (attempt >= attempts || !retryable(result))) return result;
    const retryAfter = Number(result?.response.headers.get('retry-after'));
    const wait = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : delay;
    await new Promise((resolve) => setTimeout(resolve, Math.min(wait, maxDelay)));
    delay *= 2;
  }
}

function retryable(result: { response: Response; error?: unknown }): boolean {
  const status = result.response.status;
  if (!RETRYABLE.has(status)) return false;
  if (status !== 409) return true;
  const message = (result.error as { error?: { message?: string } } | undefined)?.error?.message ?? '';
  return /still|in progress|running/i.test(message);
}
