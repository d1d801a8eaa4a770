import fastifyRateLimit, { type RateLimitPluginOptions } from '@fastify/rate-limit';
import { AppError } from '@rootline/contracts';
import fp from 'fastify-plugin';

/** Header that the spec wants as a Unix timestamp in seconds. */
const RESET_HEADER = 'x-ratelimit-reset';

export interface RateLimitOptions extends Pick<RateLimitPluginOptions, 'store' | 'redis' | 'nameSpace'> {
  /** Requests per minute per client IP. */
  perMinute: number;
}

/**
 * Per-IP rate limiting on every route registered after this plugin; a route opts out with
 * `config: { rateLimit: false }` (health probes and metrics do). Counters live in memory; pass `store`
 * (or the plugin's own `redis` client) to share them between gateway instances.
 * Register it before any route: routes registered earlier are not limited.
 */
export const rateLimitPlugin = fp<RateLimitOptions>(
  async (app, { perMinute, ...storage }) => {
    await app.register(fastifyRateLimit, {
      ...storage,
      global: true,
      max: perMinute,
      timeWindow: 60_000,
      hook: 'onRequest',
      errorResponseBuilder: (_req, ctx) =>
        new AppError('RATE_LIMITED', `Rate limit of ${ctx.max} requests per minute exceeded, retry in ${ctx.after}`),
    });

    // The plugin writes the seconds left in the window; turn that into the moment of the reset.
    app.addHook('onSend', async (_req, reply, payload) => {
      const secondsLeft = Number(reply.getHeader(RESET_HEADER));
      if (reply.hasHeader(RESET_HEADER) && Number.isFinite(secondsLeft)) {
        reply.header(RESET_HEADER, Math.floor(Date.now() / 1000) + secondsLeft);
      }
      return payload;
    });
  },
  { name: 'rootline-rate-limit' },
);
