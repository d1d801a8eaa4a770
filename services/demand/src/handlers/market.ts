import {
  AppError,
  type ListingCategory,
  listingRecommend,
  listingSearch,
  pageOf,
  pageWindow,
  sellerProfileGet,
  wishlistAdd,
  wishlistList,
  wishlistRemove,
} from '@rootline/contracts';
import { actingUser } from '@rootline/domain';
import { handle, notFound, type ServiceContext } from '@rootline/host';
import { listingView, sellerFigures } from '../db/listings.repo.js';
import { findPreference } from '../db/preferences.repo.js';
import { searchListings } from '../db/search.repo.js';
import {
  deleteWishlistItem,
  findWishlistItem,
  insertWishlistItem,
  userWishlist,
  wishlistView,
} from '../db/wishlist.repo.js';
import { type PreferenceWant, scoreListing } from '../domain/listing-recommendations.js';
import { queryWords } from '../domain/search.js';
import { withListingCovers } from './listing-photos.js';

/** Candidates read for recommendations before scoring. */
const CANDIDATES = 500;
/** Radius of recommendations when the caller's preferences state none. */
const DEFAULT_RADIUS_KM = 50;

export const searchListingsHandler = (ctx: ServiceContext) =>
  handle(listingSearch, async (input, caller) => {
    if ((input.lat === undefined) !== (input.lon === undefined)) {
      const field = input.lat === undefined ? 'querystring/lat' : 'querystring/lon';
      throw new AppError('VALIDATION_ERROR', `${field} is required with ${field.endsWith('lat') ? 'lon' : 'lat'}`, [
        { field, message: 'lat and lon go together', reason: 'lat-lon-together' },
      ]);
    }
    const { page, limit, offset } = pageWindow(input);
    const near =
      input.lat === undefined || input.lon === undefined
        ? undefined
        : { center: { latitude: input.lat, longitude: input.lon }, radiusKm: input.radius };
    const { rows, total } = await ctx.reads.run(caller, (db) =>
      searchListings(db, {
        words: input.q ? queryWords(input.q) : [],
        category: input.category,
        minPrice: input.minPrice,
        maxPrice: input.maxPrice,
        near,
        offset,
        limit,
      }),
    );
    return pageOf(
      await withListingCovers(
        ctx,
        caller,
        rows.map((r) => ({ ...listingView(r), distanceKm: r.distanceKm })),
      ),
      page,
      limit,
      total,
    );
  });

/**
 * Recommendations for the caller: active listings of others near the caller (the query's point, else their
 * demand preferences' location and radius), scored by wishlist, preferences and distance (domain/listing-
 * recommendations.ts); listings that match neither wishlist nor preferences are left out.
 */
export const recommendListings = (ctx: ServiceContext) =>
  handle(listingRecommend, async (input, caller) => {
    const actor = actingUser(caller);
    const [pref, wishes] = await Promise.all([
      findPreference(ctx.db, actor.id),
      userWishlist(ctx.db, actor.id, 0, 100),
    ]);
    const from =
      input.lat !== undefined && input.lon !== undefined
        ? { latitude: input.lat, longitude: input.lon }
        : pref
          ? { latitude: pref.latitude, longitude: pref.longitude }
          : undefined;
    const radiusKm = pref?.radiusKm ?? DEFAULT_RADIUS_KM;
    const preferences: PreferenceWant[] = ((pref?.items ?? []) as PreferenceWant[]).map((i) => ({
      crop: i.crop,
      maxPrice: i.maxPrice,
      currency: i.currency,
    }));
    const { rows } = await searchListings(ctx.db, {
      words: [],
      near: from && { center: from, radiusKm },
      excludeSeller: actor.id,
      offset: 0,
      limit: CANDIDATES,
    });
    return rows
      .map((r) => ({ row: r, ...scoreListing(r, { wishlist: wishes.rows, preferences, from }) }))
      .filter((s) => s.score > 0)
      .sort((a, b) => b.score - a.score || a.row.id.localeCompare(b.row.id))
      .slice(0, input.limit)
      .map((s) => ({
        listing: { ...listingView(s.row), distanceKm: s.distanceKm },
        score: s.score,
        reasons: s.reasons,
        reasonCodes: s.reasonCodes,
      }));
  });

export const getSellerProfile = (ctx: ServiceContext) =>
  handle(sellerProfileGet, async ({ sellerId }) => {
    const f = await sellerFigures(ctx.db, sellerId);
    if (f.memberSince === null) throw notFound('Seller', sellerId);
    return {
      sellerId,
      activeListings: f.activeListings,
      completedSales: f.completedSales,
      unitsSold: f.unitsSold,
      rating: {
        average: f.ratingAverage === null ? null : Math.round(f.ratingAverage * 100) / 100,
        count: f.ratingCount,
      },
      categories: f.categories as ListingCategory[],
      memberSince: f.memberSince,
    };
  });

export const addWishlistItem = (ctx: ServiceContext) =>
  handle(wishlistAdd, async (input, caller) => {
    const actor = actingUser(caller);
    const now = ctx.clock.now();
    const row = await insertWishlistItem(ctx.db, {
      id: ctx.newId('wsh', caller),
      userId: actor.id,
      q: input.q ?? null,
      category: input.category ?? null,
      crop: input.crop ?? null,
      maxPrice: input.maxPrice ?? null,
      createdAt: now.toISOString(),
    });
    return wishlistView(row);
  });

export const listWishlist = (ctx: ServiceContext) =>
  handle(wishlistList, async (input, caller) => {
    const actor = actingUser(caller);
    const { page, limit, offset } = pageWindow(input);
    const { rows, total } = await userWishlist(ctx.db, actor.id, offset, limit);
    return pageOf(rows.map(wishlistView), page, limit, total);
  });

/** Removes an item of the caller's own wishlist; someone else's item is NOT_FOUND (wishlists are private). */
export const removeWishlistItem = (ctx: ServiceContext) =>
  handle(wishlistRemove, async ({ itemId }, caller) => {
    const actor = actingUser(caller);
    const item = await findWishlistItem(ctx.db, itemId);
    if (!item || item.userId !== actor.id) throw notFound('Wishlist item', itemId);
    return { id: itemId, removed: await deleteWishlistItem(ctx.db, itemId, actor.id) };
  });
