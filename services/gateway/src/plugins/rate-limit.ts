import { AppError } from '@rootline/contracts';
import type { Clock } from '@rootline/host';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { RateLimitStore, WindowCount } from '../rate-limit/store.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `false` exempts the route from rate limiting (health probes, metrics). */
    rateLimit?: false;
  }
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

export interface RateLimitOptions {
  store: RateLimitStore;
  clock: Clock;
  /** Requests per minute per client IP. */
  perMinute: number;
  /** Requests per hour per signed-in user. */
  perHourPerUser: number;
}

/** One limit's state after a hit, as the three headers describe it. */
export interface LimitState {
  limit: number;
  remaining: number;
  /** Unix time, seconds, when the window resets. */
  reset: number;
}

/** The headers' view of a window after a hit. */
export function limitState(limit: number, w: WindowCount): LimitState {
  return { limit, remaining: Math.max(0, limit - w.count), reset: Math.ceil(w.resetAt / 1000) };
}

/** Writes X-RateLimit-Limit, -Remaining and -Reset (a Unix timestamp in seconds, as the spec wants). */
export function setLimitHeaders(reply: FastifyReply, s: LimitState): void {
  reply.header('x-ratelimit-limit', s.limit);
  reply.header('x-ratelimit-remaining', s.remaining);
  reply.header('x-ratelimit-reset', s.reset);
}

/** The 429 RATE_LIMITED error, with Retry-After (seconds) on the reply. */
export function rateLimited(reply: FastifyReply, retryAfterMs: number, what: string): AppError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  reply.header('retry-after', seconds);
  return new AppError('RATE_LIMITED', `${what}; retry in ${seconds} s`, { retryAfterSeconds: seconds });
}

const exempt = (req: FastifyRequest) => req.routeOptions.config?.rateLimit === false;

/**
 * A hit, or null when the store fails: the general limits fail open (logged), so a Redis outage slows
 * nothing down to a halt; the stricter sign-in limits fail closed instead (see the auth throttle).
 */
async function counted(req: FastifyRequest, hit: () => Promise<WindowCount>): Promise<WindowCount | null> {
  try {
    return await hit();
  } catch (err) {
    req.log.warn({ err }, 'rate-limit store unavailable; request not counted');
    return null;
  }
}

/**
 * The spec's limits on every route (unmatched URLs included) unless it opts out with `config.rateLimit:
 * false`: `perMinute` requests per client IP, counted before authentication so floods are cut first, and
 * `perHourPerUser` per signed-in user, counted once the caller is known and before the body is read. The
 * headers describe whichever limit is closer to running out. Counters live in `store` (memory, or Redis so
 * that replicas share them). Register before authentication.
 */
export const rateLimitPlugin = fp<RateLimitOptions>(
  async (app, { store, clock, perMinute, perHourPerUser }) => {
    app.addHook('onRequest', async (req, reply) => {
      if (exempt(req)) return;
      const w = await counted(req, () => store.hit(`ip:${req.ip}`, MINUTE_MS));
      if (!w) return;
      setLimitHeaders(reply, limitState(perMinute, w));
      if (w.count > perMinute) {
        throw rateLimited(
          reply,
          w.resetAt - clock.now().getTime(),
          `Rate limit of ${perMinute} requests per minute exceeded`,
        );
      }
    });

    // preParsing runs after every onRequest hook (authentication included) and before the body is read.
    app.addHook('preParsing', async (req, reply) => {
      if (exempt(req) || !req.actor) return;
      const key = `user:${req.actor.id}`;
      const w = await counted(req, () => store.hit(key, HOUR_MS));
      if (!w) return;
      const state = limitState(perHourPerUser, w);
      if (state.remaining < Number(reply.getHeader('x-ratelimit-remaining') ?? Number.POSITIVE_INFINITY)) {
        setLimitHeaders(reply, state);
      }
      if (w.count > perHourPerUser) {
        setLimitHeaders(reply, state);
        throw rateLimited(
          reply,
          w.resetAt - clock.now().getTime(),
          `Rate limit of ${perHourPerUser} requests per hour exceeded`,
        );
      }
    });

    app.addHook('onClose', async () => store.close());
  },
  { name: 'rootline-rate-limit' },
);
