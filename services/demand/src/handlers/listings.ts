import {
  AppError,
  type CallContext,
  isOwnerOrAdmin,
  type Listing,
  type ListingStatus,
  listingCancel,
  listingCancelled,
  listingCreate,
  listingGet,
  listingList,
  listingPublished,
  listingSetStatus,
  listingShowingImage,
  listingUpdate,
  mediaFileOwned,
  offerRejected,
  pageOf,
  pageWindow,
  plantLineageGet,
} from '@rootline/contracts';
import type { Db } from '@rootline/db';
import { actingOwner, assertOwnerOrAdmin, secureRandom } from '@rootline/domain';
import { discloseLocation } from '@rootline/geocoder';
import { call, handle, notFound, type ServiceContext } from '@rootline/host';
import {
  findListing,
  insertListing,
  type ListingRow,
  listingView,
  listListings,
  publishedListingShowing,
  updateListing,
} from '../db/listings.repo.js';
import { type OfferRow, rejectOpenOffers } from '../db/offers.repo.js';
import { imagesRefusal } from '../domain/listing-images.js';
import { editable, refusedMove } from '../domain/listing-state.js';
import { listingLeftReason } from '../domain/offers.js';
import { listingSearchText } from '../domain/search.js';
import { withGallery, withListingCovers } from './listing-photos.js';

/** Ancestors shown on a listing at most. */
const LINEAGE_DEPTH = 20;

/** The plant's lineage as the plants service tells it (never from its tables); NOT_FOUND for an unknown plant. */
async function lineageOf(ctx: ServiceContext, plantId: string, caller: CallContext): Promise<Listing['lineage']> {
  const lineage = await call(
    ctx.bus,
    plantLineageGet,
    { plantId, pedigreeDepth: LINEAGE_DEPTH, progenyDepth: 0 },
    caller,
  );
  return {
    plantId,
    commonName: lineage.plant.commonName,
    generation: lineage.plant.generation,
    ancestors: lineage.ancestors.map((a) => ({
      id: a.id,
      commonName: a.commonName,
      generation: a.generation,
      propagationType: a.propagationType,
    })),
  };
}

/**
 * Checks that a listing of `sellerId` may show the images `ids`: the seller's own image files, asked of the media
 * service (its tables are never read here). NOT_FOUND, FORBIDDEN or VALIDATION_ERROR naming `imageFileIds.<i>`.
 */
async function assertSellerImages(ctx: ServiceContext, ids: readonly string[], sellerId: string, caller: CallContext) {
  if (ids.length === 0) return;
  const { items } = await call(ctx.bus, mediaFileOwned, { fileIds: [...new Set(ids)] }, caller);
  const refusal = imagesRefusal(ids, items, sellerId, caller.actor?.role === 'ADMIN');
  if (refusal) throw refusal;
}

/** A listing the caller may see: drafts only to their seller and ADMINs (others get NOT_FOUND, as if absent). */
export async function visibleListing(db: Db, id: string, caller: CallContext, lock = false): Promise<ListingRow> {
  const row = await findListing(db, id, lock);
  // A draft is its seller's: an organization's is read by whoever acts for it, viewers too.
  if (!row || (row.status === 'draft' && !isOwnerOrAdmin(caller.actor, row.sellerId, 'viewer')))
    throw notFound('Listing', id);
  return row;
}

const published = (r: ListingRow) => ({
  listingId: r.id,
  sellerId: r.sellerId,
  title: r.title,
  category: r.category,
  price: r.price,
  currency: r.currency,
});

export const rejectedEvent = (o: OfferRow, reason: 'rejected' | 'sold-out') => ({
  offerId: o.id,
  listingId: o.listingId,
  buyerId: o.buyerId,
  sellerId: o.sellerId,
  quantity: o.quantity,
  price: o.price,
  currency: o.currency,
  reason,
});

export const createListing = (ctx: ServiceContext) =>
  handle(listingCreate, async (input, caller) => {
    const { ownerId } = actingOwner(caller);
    const now = ctx.clock.now();
    const id = ctx.newId('lst', caller);
    const done = caller.idempotencyRef ? await findListing(ctx.db, id) : undefined;
    if (done) return listingView(done);
    await assertSellerImages(ctx, input.imageFileIds, ownerId, caller);
    const lineage = input.plantId ? await lineageOf(ctx, input.plantId, caller) : null;
    const location = await discloseLocation(input.location, input.privacyLevel, secureRandom);
    const at = now.toISOString();
    const row = await ctx.db.transaction(async (tx) => {
      const created = await insertListing(tx, {
        id,
        sellerId: ownerId,
        title: input.title,
        description: input.description,
        category: input.category,
        crop: input.crop ?? null,
        plantId: input.plantId ?? null,
        lineage,
        price: input.price,
        currency: input.currency,
        quantity: input.quantity,
        latitude: location?.latitude ?? null,
        longitude: location?.longitude ?? null,
        city: location?.city ?? null,
        country: location?.country ?? null,
        privacyLevel: input.privacyLevel,
        imageFileIds: input.imageFileIds,
        status: input.status,
        createdAt: at,
        updatedAt: at,
        searchText: listingSearchText(input.title, input.description),
      });
      if (created.status === 'active') await ctx.outbox.enqueue(tx, listingPublished, published(created), caller);
      return created;
    });
    return listingView(row);
  });

export const getListing = (ctx: ServiceContext) =>
  handle(listingGet, async ({ listingId }, caller) =>
    withGallery(ctx, caller, listingView(await visibleListing(ctx.db, listingId, caller))),
  );

/** demand.listing.showing-image: a published listing naming the file among its images (media asks, docs/media.md). */
export const showingImage = (ctx: ServiceContext) =>
  handle(listingShowingImage, async ({ fileId }) => ({ listingId: await publishedListingShowing(ctx.db, fileId) }));

export const updateListingHandler = (ctx: ServiceContext) =>
  handle(listingUpdate, async ({ listingId, ...change }, caller) => {
    if (change.imageFileIds) {
      // Checked before the transaction (no bus call while it is open); the seller of a listing never changes.
      const seen = await visibleListing(ctx.db, listingId, caller);
      assertOwnerOrAdmin(caller, seen.sellerId);
      await assertSellerImages(ctx, change.imageFileIds, seen.sellerId, caller);
    }
    const row = await ctx.db.transaction(async (tx) => {
      const current = await visibleListing(tx, listingId, caller, true);
      assertOwnerOrAdmin(caller, current.sellerId);
      if (!editable(current.status as ListingStatus)) {
        throw new AppError('CONFLICT', `A ${current.status} listing cannot be changed`, {
          reason: 'listing-closed',
          status: current.status,
        });
      }
      const title = change.title ?? current.title;
      const description = change.description ?? current.description;
      return updateListing(tx, listingId, {
        ...change,
        searchText: listingSearchText(title, description),
        updatedAt: ctx.clock.now().toISOString(),
      });
    });
    return listingView(row);
  });

/**
 * Moves a listing (seller or ADMIN; for an organization's listing a member, and a manager to cancel it) along the
 * state machine; leaving active rejects its open offers.
 */
async function moveListing(ctx: ServiceContext, listingId: string, to: ListingStatus, caller: CallContext) {
  const row = await ctx.db.transaction(async (tx) => {
    const current = await visibleListing(tx, listingId, caller, true);
    assertOwnerOrAdmin(caller, current.sellerId, to === 'cancelled' ? 'manager' : 'member');
    const refusal = refusedMove(current.status as ListingStatus, to);
    if (refusal) throw new AppError('CONFLICT', refusal, { reason: 'listing-state', from: current.status, to });
    const at = ctx.clock.now().toISOString();
    const moved = await updateListing(tx, listingId, { status: to, updatedAt: at });
    if (to === 'active') await ctx.outbox.enqueue(tx, listingPublished, published(moved), caller);
    if (current.status === 'active') {
      for (const o of await rejectOpenOffers(tx, listingId, at, listingLeftReason(to))) {
        await ctx.outbox.enqueue(tx, offerRejected, rejectedEvent(o, 'rejected'), caller);
      }
    }
    if (to === 'cancelled') {
      await ctx.outbox.enqueue(tx, listingCancelled, { listingId, sellerId: moved.sellerId }, caller);
    }
    return moved;
  });
  return listingView(row);
}

export const setListingStatus = (ctx: ServiceContext) =>
  handle(listingSetStatus, async ({ listingId, status }, caller) => moveListing(ctx, listingId, status, caller));

export const cancelListing = (ctx: ServiceContext) =>
  handle(listingCancel, async ({ listingId }, caller) => moveListing(ctx, listingId, 'cancelled', caller));

export const listListingsHandler = (ctx: ServiceContext) =>
  handle(listingList, async (input, caller) => {
    const actor = caller.actor;
    const { page, limit, offset } = pageWindow(input);
    const { rows, total } = await listListings(ctx.db, {
      status: input.status,
      category: input.category,
      sellerId: input.sellerId,
      minPrice: input.minPrice,
      maxPrice: input.maxPrice,
      sort: input.sort,
      viewer: actor?.role === 'ADMIN' ? undefined : (actor?.id ?? ''),
      offset,
      limit,
    });
    return pageOf(await withListingCovers(ctx, caller, rows.map(listingView)), page, limit, total);
  });
