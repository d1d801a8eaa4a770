import type { Offer } from '../api/offers';
import { MARKET } from '../strings';

const S = MARKET.offers;

/** An offer's state as a badge: a rejected one says why ("Sold to another buyer"), in the warning colour. */
export function OfferStatusBadge({ offer }: { offer: Pick<Offer, 'status' | 'rejectionReason'> }) {
  const text = offer.rejectionReason ? S.reasons[offer.rejectionReason] : S.statuses[offer.status];
  return <span className={offer.status === 'rejected' ? 'badge bad' : 'badge'}>{text}</span>;
}
