import {
  AppError,
  chainStatsGet,
  NEARBY_EXACT_TOTAL_MAX,
  pageWindow,
  paginate,
  plantListOwned,
  plantListRecent,
  plantNearby,
  plantNetworkGet,
  plantSearch,
  SEARCH_TYPES,
  type SearchHit,
} from '@rootline/contracts';
import { normaliseSearchText, withoutTinyDegrees } from '@rootline/domain';
import { call, handle, type ServiceContext } from '@rootline/host';
import { findNearby } from '../db/nearby.repo.js';
import { findOwnedPlants, findRecentPlants } from '../db/plants.repo.js';
import { searchPlants } from '../db/search.repo.js';
import { searchIndexed } from '../db/search-index.repo.js';
import { networkCounts } from '../db/stats.repo.js';
import { nearbyArea, nearbyTotal } from '../domain/nearby.js';
import type { SearchIndexFeed } from '../jobs/search-index.js';
import { withCoverPhotos } from './covers.js';
import { type createSearchCache, searchKey } from './search-cache.js';

type SearchCache = ReturnType<typeof createSearchCache<SearchHit>>;

/** How far back a grower's last registration or propagation may lie to count as active. */
export const ACTIVE_GROWER_DAYS = 90;

/**
 * plants.plant.nearby: plants within the radius, nearest first, one page of them; the total exact up to
 * `NEARBY_EXACT_TOTAL_MAX`, an estimate beyond (`totalIsEstimate`).
 */
export const nearbyPlants = (ctx: ServiceContext) =>
  handle(plantNearby, async (input, caller) => {
    const { page, limit, offset } = pageWindow(input);
    const area = nearbyArea(withoutTinyDegrees({ latitude: input.lat, longitude: input.lon }), input.radius);
    const { items, counted, inner } = await ctx.reads.run(caller, (db) =>
      findNearby(db, area, offset, limit, NEARBY_EXACT_TOTAL_MAX + 1),
    );
    const { total, totalIsEstimate } = nearbyTotal(area, counted, inner);
    return {
      items: await withCoverPhotos(ctx, caller, items),
      pagination: { ...paginate(page, limit, total), totalIsEstimate },
    };
  });

/**
 * plants.plant.search: plants whose species, location or owner contains the text (starts with it when short), most
 * relevant first; ranked by the in-memory index once it is built (its page's plants then read by id), by
 * PostgreSQL before that or without one.
 */
export const searchPlantsHandler = (ctx: ServiceContext, cache: SearchCache, index?: SearchIndexFeed) =>
  handle(plantSearch, async (input, caller) => {
    const q = normaliseSearchText(input.q);
    if (q === '') {
      throw new AppError('VALIDATION_ERROR', 'q: must contain at least one letter or digit', { field: 'q' });
    }
    const { page, limit, offset } = pageWindow(input);
    const types = input.type ? [input.type] : SEARCH_TYPES;
    const rankedPage = async () => {
      if (!index?.ready) return ctx.reads.run(caller, (db) => searchPlants(db, q, types, offset, limit));
      // Someone who just wrote finds it: the index reads what changed before answering them.
      if (caller.readPrimary === true) await index.catchUp();
      return ctx.reads.run(caller, (db) => searchIndexed(db, ctx.db, index.index, q, types, offset, limit));
    };
    // The page's photos are kept with its answer: their URLs are signed for the address the caller asked through
    // (part of the key) and outlive the answer's seconds in the cache by minutes. A photo added meanwhile shows
    // within that time, as a new plant does.
    const key = `${caller.publicUrl ?? ''}\u0000${searchKey(q, types, offset, limit)}`;
    const { items, total, totalIsEstimate } = await cache.get(key, caller, async () => {
      const answer = await rankedPage();
      return { ...answer, items: await withCoverPhotos(ctx, caller, answer.items) };
    });
    return {
      items,
      pagination: { ...paginate(page, limit, total), totalIsEstimate },
    };
  });

/** plants.plant.list-owned: the owner's plants, newest first, one page of them. */
export const ownedPlants = (ctx: ServiceContext) =>
  handle(plantListOwned, async (input, caller) => {
    const { page, limit, offset } = pageWindow(input);
    const { items, total } = await ctx.reads.run(caller, (db) => findOwnedPlants(db, input.ownerId, offset, limit));
    return { items: await withCoverPhotos(ctx, caller, items), pagination: paginate(page, limit, total) };
  });

/** plants.plant.list-recent: the network's newest plants, newest first, one page of them (the landing page). */
export const recentPlants = (ctx: ServiceContext) =>
  handle(plantListRecent, async (input, caller) => {
    const { page, limit, offset } = pageWindow(input);
    const { items, total } = await ctx.reads.run(caller, (db) => findRecentPlants(db, offset, limit));
    return { items: await withCoverPhotos(ctx, caller, items), pagination: paginate(page, limit, total) };
  });

/** plants.network.get: plant counts from the registry, length and difficulty from the ledger. */
export const networkStats = (ctx: ServiceContext) =>
  handle(plantNetworkGet, async (_input, caller) => {
    const since = new Date(ctx.clock.now().getTime() - ACTIVE_GROWER_DAYS * 24 * 3600 * 1000);
    const [counts, chain] = await Promise.all([
      ctx.reads.run(caller, (db) => networkCounts(db, since)),
      call(ctx.bus, chainStatsGet, {}, caller),
    ]);
    return { ...counts, chainLength: chain.chainLength, difficulty: chain.difficulty };
  });
