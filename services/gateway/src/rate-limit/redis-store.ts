import type { Clock } from '@rootline/host';
import { Redis } from 'ioredis';
import type { RateLimitStore } from './store.js';

/** INCR and open the window on the first hit, atomically; answers the count and the milliseconds left. */
const HIT = `
local n = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {n, ttl}
`;

type WithHit = Redis & { rateLimitHit(key: string, windowMs: number): Promise<[number, number]> };

export interface RedisStoreOptions {
  url: string;
  /** Prefix of every key, so deployments (and tests) sharing a server do not mix counters. */
  keyPrefix: string;
  /** Turns a key's remaining time into its reset instant. */
  clock: Clock;
}

/**
 * Counters in Redis, shared by every gateway replica that points at the same server and prefix. Each hit
 * is one round trip running a small Lua script (atomic across replicas).
 */
export function createRedisStore(opts: RedisStoreOptions): RateLimitStore {
  const redis = new Redis(opts.url, {
    keyPrefix: opts.keyPrefix,
    // Fail a command fast while Redis is away rather than queueing requests behind it.
    maxRetriesPerRequest: 1,
    enableOfflineQueue: true,
    lazyConnect: false,
  }) as WithHit;
  redis.defineCommand('rateLimitHit', { numberOfKeys: 1, lua: HIT });
  // Connection errors surface on the commands that fail; the 'error' event only needs a listener.
  redis.on('error', () => {});

  return {
    async hit(key, windowMs) {
      const [count, ttl] = await redis.rateLimitHit(key, windowMs);
      return { count: Number(count), resetAt: opts.clock.now().getTime() + Number(ttl) };
    },
    async block(key, ms) {
      await redis.set(`block:${key}`, '1', 'PX', Math.max(1, Math.ceil(ms)));
    },
    async blockedFor(key) {
      const ttl = await redis.pttl(`block:${key}`);
      return Math.max(ttl, 0);
    },
    async reset(key) {
      await redis.del(key, `block:${key}`);
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
