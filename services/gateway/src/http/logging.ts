import type { Logger } from '@rootline/host';
import type { FastifyBaseLogger } from 'fastify';

type ChildArgs = Parameters<FastifyBaseLogger['child']>;

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

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type LogFn = FastifyBaseLogger['info'];

/**
 * Fastify's logger for one request (`childLoggerFactory`), made only when something is logged at a level the parent
 * logs. Fastify asks for one on every request; a pino child serialises its bindings and sets up the redaction at
 * once, about 13 µs a request in the get-plant profiles (docs/perf/get-plant.md), and at the usual levels a request
 * that succeeds logs nothing. A route with a level of its own gets its child at once.
 */
export function lazyRequestLogger(
  parent: FastifyBaseLogger,
  bindings: ChildArgs[0],
  opts: NonNullable<ChildArgs[1]>,
): FastifyBaseLogger {
  if (opts.level !== undefined) return parent.child(bindings, opts);
  return new LazyChild(parent, bindings, opts) as unknown as FastifyBaseLogger;
}

/** The child logger of `lazyRequestLogger`: one object per request, its methods on the prototype. */
class LazyChild {
  #child: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: ChildArgs[0],
    private readonly opts: NonNullable<ChildArgs[1]>,
  ) {}

  #made(): FastifyBaseLogger {
    this.#child ??= this.parent.child(this.bindings, this.opts);
    return this.#child;
  }

  #log(level: Level, args: Parameters<LogFn>): void {
    const enabled = (this.parent as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled;
    if (this.#child || !enabled || enabled.call(this.parent, level)) this.#made()[level](...args);
  }

  get level(): string {
    return this.#child?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.#made().level = level;
  }

  fatal(...args: Parameters<LogFn>): void {
    this.#log('fatal', args);
  }

  error(...args: Parameters<LogFn>): void {
    this.#log('error', args);
  }

  warn(...args: Parameters<LogFn>): void {
    this.#log('warn', args);
  }

  info(...args: Parameters<LogFn>): void {
    this.#log('info', args);
  }

  debug(...args: Parameters<LogFn>): void {
    this.#log('debug', args);
  }

  trace(...args: Parameters<LogFn>): void {
    this.#log('trace', args);
  }

  silent(): void {}

  child(b: ChildArgs[0], o?: ChildArgs[1]): FastifyBaseLogger {
    return this.#made().child(b, o);
  }
}
