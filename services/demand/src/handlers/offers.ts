import {
  AppError,
  type CallContext,
  isOwnerOrAdmin,
  listingSold,
  type OfferStatus,
  offerAccept,
  offerAccepted,
  offerCounter,
  offerCountered,
  offerList,
  offerListByBuyer,
  offerMade,
  offerMake,
  offerReject,
  offerRejected,
  offerReview,
  offerWithdraw,
  offerWithdrawn,
  pageOf,
  pageWindow,
} from '@rootline/contracts';
import type { Db } from '@rootline/db';
import { actingUser } from '@rootline/domain';
import { handle, notFound, type ServiceContext } from '@rootline/host';
import { findListing, type ListingRow, updateListing } from '../db/listings.repo.js';
import {
  buyerOfferView,
  findOffer,
  insertOffer,
  listBuyerOffers,
  listOffers,
  type OfferRow,
  offerView,
  rejectImpossibleOffers,
  reviewOnce,
  updateOffer,
} from '../db/offers.repo.js';
import { agreedPrice, declineReason, type OfferAction, offerRefusal } from '../domain/offers.js';
import { rejectedEvent, visibleListing } from './listings.js';

const offerEvent = (o: OfferRow) => ({
  offerId: o.id,
  listingId: o.listingId,
  buyerId: o.buyerId,
  sellerId: o.sellerId,
  quantity: o.quantity,
  price: agreedPrice(o),
  currency: o.currency,
});

/**
 * Runs `fn` on an offer and its listing, both locked in one transaction. The listing is locked first, the way every
 * offer change does it: an accept that rejects the other offers on the listing then never waits on an offer
 * another transaction holds while waiting for the listing (no deadlock), and two accepts of the last unit are
 * serialised on the listing row, so exactly one of them sells it.
 */
async function withOffer<T>(
  ctx: ServiceContext,
  offerId: string,
  action: OfferAction,
  caller: CallContext,
  fn: (tx: Db, offer: OfferRow, listing: ListingRow, at: string) => Promise<T>,
): Promise<T> {
  const actor = actingUser(caller);
  const seen = await findOffer(ctx.db, offerId);
  if (!seen || (!isOwnerOrAdmin(actor, seen.buyerId) && !isOwnerOrAdmin(actor, seen.sellerId))) {
    throw notFound('Offer', offerId);
  }
  return ctx.db.transaction(async (tx) => {
    const listing = (await findListing(tx, seen.listingId, true)) as ListingRow;
    const offer = (await findOffer(tx, offerId, true)) as OfferRow;
    const refusal = offerRefusal({ ...offer, status: offer.status as OfferStatus }, action, actor);
    if (refusal?.code === 'FORBIDDEN') throw new AppError('FORBIDDEN', refusal.message, { reason: 'not-your-turn' });
    if (action === 'accept' && listing.status !== 'active') {
      throw new AppError('CONFLICT', `The listing is ${listing.status}: nothing left to sell`, {
        reason: 'listing-sold-out',
        listingStatus: listing.status,
      });
    }
    if (refusal)
      throw new AppError(refusal.code, refusal.message, { reason: 'offer-state', offerStatus: offer.status });
    return fn(tx, offer, listing, ctx.clock.now().toISOString());
  });
}

export const makeOffer = (ctx: ServiceContext) =>
  handle(offerMake, async ({ listingId, quantity, price, message }, caller) => {
    const actor = actingUser(caller);
    const now = ctx.clock.now();
    const id = ctx.newId('ofr', caller);
    const done = caller.idempotencyRef ? await findOffer(ctx.db, id) : undefined;
    if (done) return offerView(done);
    const row = await ctx.db.transaction(async (tx) => {
      const listing = await visibleListing(tx, listingId, caller, true);
      if (listing.sellerId === actor.id) {
        throw new AppError('FORBIDDEN', 'A seller cannot make an offer on their own listing', {
          reason: 'own-listing',
        });
      }
      if (listing.status !== 'active') {
        throw new AppError('CONFLICT', `The listing is ${listing.status}: it takes no offers`, {
          reason: 'listing-not-open',
          listingStatus: listing.status,
        });
      }
      if (quantity > listing.quantity) {
        throw new AppError('VALIDATION_ERROR', `body/quantity is more than the ${listing.quantity} available`, [
          {
            field: 'body/quantity',
            message: `must be at most ${listing.quantity}`,
            reason: 'quantity-over-available',
            available: listing.quantity,
          },
        ]);
      }
      const at = now.toISOString();
      const offer = await insertOffer(tx, {
        id,
        listingId,
        buyerId: actor.id,
        sellerId: listing.sellerId,
        quantity,
        price,
        counterPrice: null,
        currency: listing.currency,
        message,
        status: 'pending',
        createdAt: at,
        updatedAt: at,
      });
      await ctx.outbox.enqueue(tx, offerMade, offerEvent(offer), caller);
      return offer;
    });
    return offerView(row);
  });

export const listOffersHandler = (ctx: ServiceContext) =>
  handle(offerList, async (input, caller) => {
    const actor = actingUser(caller);
    const listing = await visibleListing(ctx.db, input.listingId, caller);
    const { page, limit, offset } = pageWindow(input);
    // The seller (or an ADMIN) sees every offer; anyone else only their own.
    const buyer = isOwnerOrAdmin(actor, listing.sellerId) ? undefined : actor.id;
    const { rows, total } = await listOffers(ctx.db, input.listingId, buyer, offset, limit);
    return pageOf(rows.map(offerView), page, limit, total);
  });

/**
 * A buyer's offers on every listing, newest first, each with its listing as it is now: the caller's own, or, for an
 * ADMIN, the buyer `buyerId` names (the gateway's `self` rule refuses anyone else; checked here again).
 */
export const listBuyerOffersHandler = (ctx: ServiceContext) =>
  handle(offerListByBuyer, async (input, caller) => {
    const actor = actingUser(caller);
    const buyerId = input.buyerId ?? actor.id;
    if (!isOwnerOrAdmin(actor, buyerId)) {
      throw new AppError('FORBIDDEN', 'buyerId must be your own account id', { field: 'buyerId', reason: 'not-self' });
    }
    const { page, limit, offset } = pageWindow(input);
    const { rows, total } = await listBuyerOffers(ctx.db, buyerId, input.status, offset, limit);
    return pageOf(rows.map(buyerOfferView), page, limit, total);
  });

export const counterOffer = (ctx: ServiceContext) =>
  handle(offerCounter, async ({ offerId, price }, caller) => {
    const row = await withOffer(ctx, offerId, 'counter', caller, async (tx, _offer, _listing, at) => {
      const updated = await updateOffer(tx, offerId, { status: 'countered', counterPrice: price, updatedAt: at });
      await ctx.outbox.enqueue(tx, offerCountered, { ...offerEvent(updated), counterPrice: price }, caller);
      return updated;
    });
    return offerView(row);
  });

/**
 * Accepting sells the offer's quantity: the listing's quantity goes down (to sold at 0), the offer is accepted, and
 * the open offers that ask for more than what remains are rejected, all in the transaction that holds the listing.
 */
export const acceptOffer = (ctx: ServiceContext) =>
  handle(offerAccept, async ({ offerId }, caller) => {
    const row = await withOffer(ctx, offerId, 'accept', caller, async (tx, offer, listing, at) => {
      if (offer.quantity > listing.quantity) {
        throw new AppError('CONFLICT', `Only ${listing.quantity} left: the offer asks for ${offer.quantity}`, {
          reason: 'not-enough-left',
          available: listing.quantity,
        });
      }
      const remaining = listing.quantity - offer.quantity;
      const sold = remaining === 0;
      await updateListing(tx, listing.id, { quantity: remaining, updatedAt: at, ...(sold ? { status: 'sold' } : {}) });
      const accepted = await updateOffer(tx, offerId, { status: 'accepted', updatedAt: at });
      await ctx.outbox.enqueue(tx, offerAccepted, offerEvent(accepted), caller);
      for (const o of await rejectImpossibleOffers(tx, listing.id, offerId, remaining, at, 'sold-out')) {
        await ctx.outbox.enqueue(tx, offerRejected, rejectedEvent(o, 'sold-out'), caller);
      }
      if (sold) {
        await ctx.outbox.enqueue(
          tx,
          listingSold,
          { listingId: listing.id, sellerId: listing.sellerId, title: listing.title },
          caller,
        );
      }
      return accepted;
    });
    return offerView(row);
  });

export const rejectOffer = (ctx: ServiceContext) =>
  handle(offerReject, async ({ offerId }, caller) => {
    const row = await withOffer(ctx, offerId, 'reject', caller, async (tx, offer, _listing, at) => {
      // withOffer let the rejection through, so the offer is open: pending or countered.
      const reason = declineReason(offer.status as 'pending' | 'countered');
      const updated = await updateOffer(tx, offerId, { status: 'rejected', rejectionReason: reason, updatedAt: at });
      await ctx.outbox.enqueue(tx, offerRejected, rejectedEvent(updated, 'rejected'), caller);
      return updated;
    });
    return offerView(row);
  });

export const withdrawOffer = (ctx: ServiceContext) =>
  handle(offerWithdraw, async ({ offerId }, caller) => {
    const row = await withOffer(ctx, offerId, 'withdraw', caller, async (tx, _offer, _listing, at) => {
      const updated = await updateOffer(tx, offerId, { status: 'withdrawn', updatedAt: at });
      await ctx.outbox.enqueue(tx, offerWithdrawn, offerEvent(updated), caller);
      return updated;
    });
    return offerView(row);
  });

/** The buyer of an accepted offer rates the seller once (the rating of the seller's profile). */
export const reviewOffer = (ctx: ServiceContext) =>
  handle(offerReview, async ({ offerId, rating, comment }, caller) => {
    const actor = actingUser(caller);
    const offer = await findOffer(ctx.db, offerId);
    if (!offer || (!isOwnerOrAdmin(actor, offer.buyerId) && !isOwnerOrAdmin(actor, offer.sellerId))) {
      throw notFound('Offer', offerId);
    }
    if (actor.id !== offer.buyerId)
      throw new AppError('FORBIDDEN', 'Only the buyer may review a sale', { reason: 'not-buyer' });
    if (offer.status !== 'accepted')
      throw new AppError('CONFLICT', 'Only an accepted offer can be reviewed', { reason: 'offer-not-accepted' });
    if (!(await reviewOnce(ctx.db, offerId, rating, comment))) {
      throw new AppError('DUPLICATE', 'This sale has already been reviewed', { reason: 'already-reviewed' });
    }
    return { offerId, rating, comment };
  });
