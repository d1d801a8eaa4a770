import { RootlineError } from '@rootline/sdk';
import type { Offer } from '../api/offers';
import { MARKET } from '../strings';

const S = MARKET.offers;

/**
 * What a buyer is told when accepting is refused because the listing changed first, rather than the API's 409
 * message: another buyer's offer was accepted (the listing sold, or this offer rejected as sold-out), fewer units are
 * left than it asks for, or the seller took the listing off sale. The 409 names the cause in `details`
 * (`listingStatus`, `available`, `offerStatus`); any other refusal keeps the API's message (undefined).
 */
export function acceptRefusal(error: unknown, offer: Offer): string | undefined {
  if (!(error instanceof RootlineError) || error.code !== 'CONFLICT') return undefined;
  const details = (error.details ?? {}) as { listingStatus?: unknown; available?: unknown; offerStatus?: unknown };
  if (details.listingStatus === 'sold') return S.raceLost;
  if (details.offerStatus === 'rejected' && offer.rejectionReason === 'sold-out') return S.raceLost;
  if (details.listingStatus === 'cancelled' || details.listingStatus === 'draft') return S.offSale;
  if (typeof details.available === 'number') return S.fewerLeft(details.available);
  return undefined;
}
