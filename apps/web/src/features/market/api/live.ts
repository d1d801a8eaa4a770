import type { RealtimeEvent } from '@rootline/sdk';
import { useLiveRefresh } from '../../../lib/live';
import { listingKey } from './listings';
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
export function useListingLive(listingId: string, userId: string): void {
  const keys = [listingKey(listingId), offersKey(listingId)];
  const about = (e: RealtimeEvent) => listingOf(e) === listingId;
  useLiveRefresh(`user:${userId}`, keys, about);
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
