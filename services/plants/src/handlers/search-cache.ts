import type { CallContext, SearchType } from '@rootline/contracts';
import { LRUCache } from 'lru-cache';

/** One search's answer: a page of hits and how many match. */
export interface SearchAnswer<T> {
  items: T[];
  total: number;
  totalIsEstimate: boolean;
}

export interface SearchCacheOptions {
  /** How long an answer is reused; 0 computes every search. */
  ttlMs: number;
  /** Most answers kept (least recently used go first). */
  max?: number;
  /** The clock's milliseconds, so tests and the service's clock agree. */
  now?: () => number;
}

/** The key of a search: its normalised text, its fields and its page. */
export const searchKey = (q: string, types: readonly SearchType[], offset: number, limit: number) =>
  `${types.join(',')}\u0000${offset}\u0000${limit}\u0000${q}`;

/**
 * Answers of recent searches, reused for `ttlMs` (ADR 164): every grower typing "tomato" within that time gets the
 * answer the first one computed. Concurrent misses of one key share one computation. A caller whose own write is
 * recent (`readPrimary`) is answered afresh and its answer not kept, so it always finds what it just wrote; anyone
 * else may see an answer up to `ttlMs` old, as a replica may be behind.
 */
export function createSearchCache<T>(o: SearchCacheOptions) {
  const cache =
    o.ttlMs > 0
      ? new LRUCache<string, SearchAnswer<T>, () => Promise<SearchAnswer<T>>>({
          max: o.max ?? 1000,
          ttl: o.ttlMs,
          // The clock read at every look-up, not once a millisecond: a test's clock moves in jumps.
          ttlResolution: 0,
          ...(o.now ? { perf: { now: o.now } } : {}),
          fetchMethod: (_key, _stale, { context }) => context(),
        })
      : undefined;
  return {
    /** The answer of `key`: kept, or computed by `compute` (and kept unless the caller reads its own writes). */
    async get(key: string, caller: CallContext, compute: () => Promise<SearchAnswer<T>>): Promise<SearchAnswer<T>> {
      if (!cache || caller.readPrimary === true) return compute();
      const answer = await cache.fetch(key, { context: compute });
      return answer ?? compute();
    },
    get size(): number {
      return cache?.size ?? 0;
    },
  };
}
