import type { Logger } from '@rootline/host';

/**
 * Fields never written to the log, wherever they appear in a logged object (two levels deep): passwords,
 * hashes, tokens and secrets, credentials in headers and cookies, OAuth codes and verifiers.
 */
export const REDACT_PATHS = [
  'password',
  '*.password',
  '*.*.password',
  'passwordHash',
  '*.passwordHash',
  '*.*.passwordHash',
  'token',
  '*.token',
  '*.*.token',
  'tokenHash',
  '*.tokenHash',
  'csrfToken',
  '*.csrfToken',
  'secret',
  '*.secret',
  'code_verifier',
  '*.code_verifier',
  'client_secret',
  '*.client_secret',
  'access_token',
  '*.access_token',
  'id_token',
  '*.id_token',
  'headers.authorization',
  'headers.cookie',
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-csrf-token"]',
  'res.headers["set-cookie"]',
];

/** Query parameters that carry secrets (OAuth callbacks, links): their values are not logged. */
const SECRET_PARAMS = new Set(['code', 'state', 'token', 'access_token', 'id_token', 'code_verifier', 'password']);

/** A URL as it may be logged: the values of secret-bearing query parameters replaced. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  let changed = false;
  for (const key of [...params.keys()]) {
    if (SECRET_PARAMS.has(key.toLowerCase())) {
      params.set(key, '[redacted]');
      changed = true;
    }
  }
  return changed ? `${url.slice(0, q)}?${params.toString()}` : url;
}

interface LoggableError {
  type: string;
  message: string;
  stack?: string;
  code?: unknown;
  cause?: LoggableError;
}

/**
 * Errors as logged. A failed database query's error message lists the query's parameters, which may be a
 * password hash or a token hash: it is logged with the query text and the driver's error only.
 */
export function serializeError(err: unknown, depth = 0): LoggableError | unknown {
  if (!(err instanceof Error)) return err;
  const e = err as Error & { code?: unknown; query?: unknown; params?: unknown };
  let message = e.message;
  let stack = e.stack;
  if (typeof e.query === 'string' && 'params' in e) {
    message = `Failed query: ${e.query}`;
    stack = stack?.replace(e.message, message);
  }
  const out: LoggableError = { type: e.name, message, ...(stack ? { stack } : {}) };
  if (e.code !== undefined) out.code = e.code;
  if (e.cause !== undefined && depth < 3) out.cause = serializeError(e.cause, depth + 1) as LoggableError;
  return out;
}

/** Requests as logged: method, URL without secret query values, host, client address. */
function serializeRequest(req: { method?: string; url?: string; host?: string; ip?: string }) {
  return { method: req.method, url: req.url ? redactUrl(req.url) : req.url, host: req.host, remoteAddress: req.ip };
}

/** The gateway's logger: the process logger with the gateway's redaction and serializers added. */
export function gatewayLogger(log: Logger): Logger {
  return log.child(
    {},
    {
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      serializers: { err: serializeError, req: serializeRequest },
    },
  );
}
