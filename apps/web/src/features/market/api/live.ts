import type { RealtimeEvent } from '@rootline/sdk';
import { useLiveRefresh } from '../../../lib/live';
import { listingKey, MARKET_KEY } from './listing-queries';
import { offersKey } from './offers';

/** The listing an event is about: a marketplace event's `listingId`, or that of an in-app notification's data. */
function listingOf(e: RealtimeEvent): string | undefined {
  if (typeof e.data.listingId === 'string') return e.data.listingId;
  const inner = e.data.data as Record<string, unknown> | undefined;
  return typeof inner?.listingId === 'string' ? inner.listingId : undefined;
}

/**
 * A listing's page follows its listing and offers: the seller's own room carries every offer and listing event (they
 * name `sellerId`) and the offer notifications; the public form of an offer event does not name the buyer, so the
 * page also takes the listing's events from `network`, where a counter or a sale reaches the buyer (ADR 146).
 */
export function useListingLive(listingId: string, userId: string | null): void {
  const keys = [listingKey(listingId), offersKey(listingId)];
  const about = (e: RealtimeEvent) => listingOf(e) === listingId;
  useLiveRefresh(userId ? `user:${userId}` : null, keys, about);
  useLiveRefresh('network', keys, about);
}

/** A seller's list follows what happens to their listings (every listing and offer event names the seller). */
export function useSellerLive(userId: string): void {
  useLiveRefresh(`user:${userId}`, [['market', 'seller-listings']]);
}

/** Search results follow listings being published, sold or cancelled anywhere. */
export function useMarketLive(): void {
  useLiveRefresh('network', [['market', 'search']], (e) => e.event.startsWith('listing.'));
}

/**
 * A buyer's list of offers follows the listings it shows: their events on `network` (a counter, a sale, a rejection:
 * the public form names the listing, not the buyer, ADR 146) and, in `user:<me>`, the notifications about offers.
 * The whole marketplace cache is invalidated: the list refetches, and the listing pages it links to, cached from an
 * earlier visit, are marked stale, so opening one shows the offer as it is now.
 */
export function useBuyerOffersLive(userId: string, listingIds: readonly string[]): void {
  const keys = [MARKET_KEY];
  useLiveRefresh(`user:${userId}`, keys, (e) => listingOf(e) !== undefined);
  useLiveRefresh('network', keys, (e) => listingIds.includes(listingOf(e) ?? ''));
}
