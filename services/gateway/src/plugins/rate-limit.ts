import { createHmac, timingSafeEqual } from 'node:crypto';
import fastifyRateLimit from '@fastify/rate-limit';
import { AppError } from '@rootline/contracts';
import type { Clock } from '@rootline/host';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { SESSION_COOKIE } from './auth.js';
import { VerifiedTokens } from './verified-tokens.js';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

export interface RateLimitOptions {
  clock: Clock;
  /** Shared counters (keys under the client's own prefix); without it each gateway counts in memory. */
  redis: Redis | null;
  /** Requests per minute per client IP of API clients (requests with an `Authorization` header). */
  perMinute: number;
  /** Requests per hour per user of API clients (an API token or a session token sent as a bearer token). */
  perHourPerUser: number;
  /** Requests per minute per client IP of requests that carry no credential (anonymous visitors). */
  anonymousPerMinute: number;
  /** Requests per minute per browser session (requests with a valid session cookie and no `Authorization`). */
  perMinutePerSession: number;
  /** The session a request's cookie names when its signature and expiry hold (see `browserSessionOf`). */
  sessionOf: (req: FastifyRequest) => string | null;
}

type Check = ReturnType<FastifyInstance['createRateLimit']>;

/** Milliseconds until a route-level limit that refused the request resets; the header is written from it. */
const routeLimitReset = Symbol('rootline.routeLimitReset');
declare module 'fastify' {
  interface FastifyRequest {
    [routeLimitReset]?: number;
  }
}

/** The 429 RATE_LIMITED error, with Retry-After (seconds) on the reply when given. */
export function rateLimited(reply: FastifyReply | null, retryAfterMs: number, what: string): AppError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  reply?.header('retry-after', seconds);
  return new AppError('RATE_LIMITED', `${what}; retry in ${seconds} s`, { retryAfterSeconds: seconds });
}

/**
 * A tighter per-IP limit for one route (sign-in, registration, password reset), as `config.rateLimit`. The
 * plugin counts it after the general limit and writes X-RateLimit-Limit, -Remaining and Retry-After when it
 * refuses; X-RateLimit-Reset is written as a Unix time by this gateway's hook.
 */
export function routeLimit(perMinute: number, what: string) {
  return {
    max: perMinute,
    timeWindow: MINUTE_MS,
    // Not refused while the store is away: the sign-in protection behind it answers 503 instead.
    skipOnError: true,
    addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
    // Route options replace the plugin's header toggles whole, so all four are named.
    addHeaders: {
      'x-ratelimit-limit': true,
      'x-ratelimit-remaining': true,
      'x-ratelimit-reset': false,
      'retry-after': true,
    },
    errorResponseBuilder: (req: FastifyRequest, ctx: { ttl: number }) => {
      req[routeLimitReset] = ctx.ttl;
      return rateLimited(null, ctx.ttl, `Too many ${what} attempts from this address (${perMinute} per minute)`);
    },
  };
}

/** A separate instance of @fastify/rate-limit (its own limit and store), used through `createRateLimit`. */
async function limiter(
  app: FastifyInstance,
  redis: Redis | null,
  max: number,
  timeWindow: number,
  key: (req: FastifyRequest) => string,
): Promise<Check> {
  let check: Check | undefined;
  await app.register(async (scope) => {
    await scope.register(fastifyRateLimit, {
      global: false,
      max,
      timeWindow,
      keyGenerator: key,
      // Neither counted nor refused while the store is away: a Redis outage does not stop the gateway.
      skipOnError: true,
      ...(redis ? { redis, nameSpace: '' } : { cache: 10_000 }),
    });
    check = scope.createRateLimit();
  });
  if (!check) throw new Error('rate limiter not registered');
  return check;
}

const exempt = (req: FastifyRequest) => req.routeOptions.config?.rateLimit === false;

type Result = Awaited<ReturnType<Check>>;

/** The plugin's answer when it counted the request; null (logged) when its store failed (`skipOnError`). */
function counted(req: FastifyRequest, r: Result): Exclude<Result, { isAllowed: true }> | null {
  if (r.isAllowed) return null;
  if (r.ttl === 0) {
    req.log.warn('rate-limit store unavailable; request not counted');
    return null;
  }
  return r;
}

/** Writes the three headers unless the ones already written describe a limit closer to running out. */
function showLimit(reply: FastifyReply, clock: Clock, max: number, remaining: number, ttlMs: number, force = false) {
  const shown = reply.getHeader('x-ratelimit-remaining');
  if (!force && shown !== undefined && Number(shown) <= remaining) return;
  reply.header('x-ratelimit-limit', max);
  reply.header('x-ratelimit-remaining', remaining);
  reply.header('x-ratelimit-reset', Math.ceil((clock.now().getTime() + ttlMs) / 1000));
}

/** The value of one cookie in a Cookie header, read before the cookie plugin parses the request. */
function cookieValue(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return null;
}

const b64url = (text: string) => Buffer.from(text, 'base64url');

/**
 * The session id (`sid`) a request's session cookie names when the token's HS256 signature and expiry hold, else
 * null. It decides only which budget counts the request: whether the session is still live is checked by
 * authentication, as on every request. A forged or expired cookie is counted as an anonymous visitor. Verified
 * tokens are remembered (VerifiedTokens), so a browsing session costs one HMAC per token, not per request.
 */
export function browserSessionOf(secret: string, nowMs: () => number): (req: FastifyRequest) => string | null {
  const key = Buffer.from(secret, 'utf8');
  const verify = (token: string): { exp: number; sid: string } => {
    const [header, payload, signature, ...rest] = token.split('.');
    if (!header || !payload || !signature || rest.length > 0) throw new Error('not a JWT');
    if ((JSON.parse(b64url(header).toString('utf8')) as { alg?: unknown }).alg !== 'HS256') throw new Error('alg');
    const expected = createHmac('sha256', key).update(`${header}.${payload}`).digest();
    const given = b64url(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new Error('signature');
    const claims = JSON.parse(b64url(payload).toString('utf8')) as { exp?: unknown; sid?: unknown };
    if (typeof claims.exp !== 'number' || typeof claims.sid !== 'string') throw new Error('claims');
    if (claims.exp * 1000 <= nowMs()) throw new Error('expired');
    return { exp: claims.exp, sid: claims.sid };
  };
  const tokens = new VerifiedTokens(verify, 10_000, nowMs);
  return (req) => {
    // A request with a bearer token is judged by it (as authentication does), whatever cookie it carries.
    if (req.headers.authorization !== undefined) return null;
    const token = cookieValue(req.headers.cookie, SESSION_COOKIE);
    if (!token) return null;
    try {
      return tokens.claims(token).sid;
    } catch {
      return null;
    }
  };
}

/** How a request is counted: per browser session, per address of an API client, or per address of a visitor. */
type Budget = 'session' | 'api' | 'anonymous';
const budgetOf = Symbol('rootline.rateLimitBudget');
declare module 'fastify' {
  interface FastifyRequest {
    [budgetOf]?: Budget;
  }
}

/** A page of the web app (index.html for any GET outside /api): static, answered from memory, never limited. */
function isAppPage(req: FastifyRequest): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const path = req.url.split('?')[0] ?? '';
  return !(path === '/api' || path.startsWith('/api/'));
}

/**
 * The limits on @fastify/rate-limit, on every /api route (unmatched URLs included) unless it opts out with
 * `config.rateLimit: false`. Each request is counted against one budget, chosen before authentication so floods
 * are cut first:
 * - a browser session (a validly signed, unexpired session cookie and no `Authorization` header):
 *   `perMinutePerSession` per session, so people behind one address do not share a budget;
 * - an API client (an `Authorization` header): `perMinute` per client IP (the spec's 100), then
 *   `perHourPerUser` per user once the caller is known and before the body is read (the spec's 1000);
 * - anything else, an anonymous visitor: `anonymousPerMinute` per client IP.
 * Pages of the web app (GET outside /api) are static and not counted. Counters live in the plugin's stores
 * (memory, or Redis so replicas share them). The headers describe whichever limit is closer to running out,
 * X-RateLimit-Reset as a Unix time in seconds. Routes may add a tighter limit with
 * `config.rateLimit: routeLimit(...)`. Register before authentication.
 */
export const rateLimitPlugin = fp<RateLimitOptions>(
  async (app, { clock, redis, perMinute, perHourPerUser, anonymousPerMinute, perMinutePerSession, sessionOf }) => {
    const perSession = await limiter(app, redis, perMinutePerSession, MINUTE_MS, (req) => `session:${sessionOf(req)}`);
    const perApiIp = await limiter(app, redis, perMinute, MINUTE_MS, (req) => `api-ip:${req.ip}`);
    const perIp = await limiter(app, redis, anonymousPerMinute, MINUTE_MS, (req) => `ip:${req.ip}`);
    const perUser = await limiter(app, redis, perHourPerUser, HOUR_MS, (req) => `user:${req.actor?.id}`);
    // The route-level limits of `config.rateLimit` (global: false leaves every other route to the hooks).
    await app.register(fastifyRateLimit, {
      global: false,
      keyGenerator: (req) => `ip:${req.ip}`,
      ...(redis ? { redis, nameSpace: '' } : {}),
    });

    app.addHook('onRequest', async (req, reply) => {
      if (exempt(req) || isAppPage(req)) return;
      const budget: Budget =
        req.headers.authorization !== undefined ? 'api' : sessionOf(req) !== null ? 'session' : 'anonymous';
      req[budgetOf] = budget;
      const check = budget === 'session' ? perSession : budget === 'api' ? perApiIp : perIp;
      const r = counted(req, await check(req));
      if (!r) return;
      showLimit(reply, clock, r.max, r.remaining, r.ttl, true);
      if (r.isExceeded) {
        const per = budget === 'session' ? 'per session' : 'from this address';
        throw rateLimited(reply, r.ttl, `Rate limit of ${r.max} requests per minute ${per} exceeded`);
      }
    });

    // preParsing runs after every onRequest hook (authentication included) and before the body is read.
    app.addHook('preParsing', async (req, reply) => {
      if (req[budgetOf] !== 'api' || !req.actor) return;
      const r = counted(req, await perUser(req));
      if (!r) return;
      showLimit(reply, clock, r.max, r.remaining, r.ttl, r.isExceeded);
      if (r.isExceeded) throw rateLimited(reply, r.ttl, `Rate limit of ${r.max} requests per hour exceeded`);
    });

    app.addHook('onSend', (req, reply, payload, done) => {
      const ttlMs = req[routeLimitReset];
      // As a Unix time on the gateway's clock, like the general limits' header.
      if (ttlMs !== undefined) reply.header('x-ratelimit-reset', Math.ceil((clock.now().getTime() + ttlMs) / 1000));
      done(null, payload);
    });
  },
  { name: 'rootline-rate-limit' },
);
