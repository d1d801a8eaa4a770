import type { ListingStatus, OfferRejectionReason, OfferStatus } from '@rootline/contracts/marketplace';
import type { Actor } from '@rootline/contracts/roles';

export type OfferAction = 'counter' | 'accept' | 'reject' | 'withdraw';

/** The parties of an offer, as stored. */
export interface OfferParties {
  buyerId: string;
  sellerId: string;
  status: OfferStatus;
}

/**
 * Whose turn it is: a pending offer awaits the seller (accept, reject or counter), a countered one the buyer
 * (accept or reject the counter; the seller may counter again). The buyer may withdraw while it is open. An
 * ADMIN acts for whichever party's turn it is.
 */
export function offerRefusal(
  offer: OfferParties,
  action: OfferAction,
  actor: Actor,
): { code: 'FORBIDDEN' | 'CONFLICT'; message: string } | undefined {
  const open = offer.status === 'pending' || offer.status === 'countered';
  const admin = actor.role === 'ADMIN';
  const isSeller = admin || actor.id === offer.sellerId;
  const isBuyer = admin || actor.id === offer.buyerId;
  if (!isSeller && !isBuyer) return { code: 'FORBIDDEN', message: 'Only the buyer or the seller may act on an offer' };
  if (!open) return { code: 'CONFLICT', message: `The offer is already ${offer.status}` };
  const turn = offer.status === 'pending' ? 'seller' : 'buyer';
  switch (action) {
    case 'withdraw':
      return isBuyer ? undefined : { code: 'FORBIDDEN', message: 'Only the buyer may withdraw an offer' };
    case 'counter':
      return isSeller ? undefined : { code: 'FORBIDDEN', message: 'Only the seller may counter an offer' };
    case 'accept':
    case 'reject':
      if (turn === 'seller' && !isSeller) {
        return { code: 'FORBIDDEN', message: `A pending offer awaits the seller: only the seller may ${action} it` };
      }
      if (turn === 'buyer' && !isBuyer) {
        return { code: 'FORBIDDEN', message: `A countered offer awaits the buyer: only the buyer may ${action} it` };
      }
      return undefined;
  }
}

/** The price per unit both parties agree on when the offer is accepted. */
export function agreedPrice(offer: { price: number; counterPrice: number | null }): number {
  return offer.counterPrice ?? offer.price;
}

/**
 * Why a rejection by a party is one: whoever's turn it was said no. A pending offer awaits the seller, so its
 * rejection is the seller's decline; a countered one awaits the buyer, who declined the counter.
 */
export function declineReason(status: 'pending' | 'countered'): OfferRejectionReason {
  return status === 'pending' ? 'declined' : 'counter-declined';
}

/** Why the open offers of a listing leaving active are rejected: it was cancelled, or paused back to draft. */
export function listingLeftReason(to: ListingStatus): OfferRejectionReason {
  return to === 'cancelled' ? 'listing-cancelled' : 'listing-unpublished';
}
