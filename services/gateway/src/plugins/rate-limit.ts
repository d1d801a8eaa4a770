import fastifyRateLimit from '@fastify/rate-limit';
import { AppError } from '@rootline/contracts';
import type { Clock } from '@rootline/host';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

export interface RateLimitOptions {
  clock: Clock;
  /** Shared counters (keys under the client's own prefix); without it each gateway counts in memory. */
  redis: Redis | null;
  /** Requests per minute per client IP. */
  perMinute: number;
  /** Requests per hour per signed-in user. */
  perHourPerUser: number;
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

/**
 * The spec's limits on @fastify/rate-limit, on every route (unmatched URLs included) unless it opts out with
 * `config.rateLimit: false`: `perMinute` requests per client IP, counted before authentication so floods
 * are cut first, and `perHourPerUser` per signed-in user, counted once the caller is known and before the
 * body is read. Counters live in the plugin's stores (memory, or Redis so replicas share them). The headers
 * describe whichever limit is closer to running out, X-RateLimit-Reset as a Unix time in seconds. Routes
 * may add a tighter limit with `config.rateLimit: routeLimit(...)`. Register before authentication.
 */
export const rateLimitPlugin = fp<RateLimitOptions>(
  async (app, { clock, redis, perMinute, perHourPerUser }) => {
    const perIp = await limiter(app, redis, perMinute, MINUTE_MS, (req) => `ip:${req.ip}`);
    const perUser = await limiter(app, redis, perHourPerUser, HOUR_MS, (req) => `user:${req.actor?.id}`);
    // The route-level limits of `config.rateLimit` (global: false leaves every other route to the hooks).
    await app.register(fastifyRateLimit, {
      global: false,
      keyGenerator: (req) => `ip:${req.ip}`,
      ...(redis ? { redis, nameSpace: '' } : {}),
    });

    app.addHook('onRequest', async (req, reply) => {
      if (exempt(req)) return;
      const r = counted(req, await perIp(req));
      if (!r) return;
      showLimit(reply, clock, r.max, r.remaining, r.ttl, true);
      if (r.isExceeded) throw rateLimited(reply, r.ttl, `Rate limit of ${r.max} requests per minute exceeded`);
    });

    // preParsing runs after every onRequest hook (authentication included) and before the body is read.
    app.addHook('preParsing', async (req, reply) => {
      if (exempt(req) || !req.actor) return;
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
