import type { Clock } from '@rootline/host';
import type { Redis } from 'ioredis';
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

/**
 * Counters in Redis, shared by every gateway replica that points at the same server and key prefix (the
 * client's `keyPrefix`). Each hit is one round trip running a small Lua script (atomic across replicas).
 * The client is the caller's (shared with the general rate limits) and closed by it.
 */
export function createRedisStore(client: Redis, clock: Clock): RateLimitStore {
  const redis = client as WithHit;
  redis.defineCommand('rateLimitHit', { numberOfKeys: 1, lua: HIT });

  return {
    async hit(key, windowMs) {
      const [count, ttl] = await redis.rateLimitHit(key, windowMs);
      return { count: Number(count), resetAt: clock.now().getTime() + Number(ttl) };
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
    async close() {},
  };
}
