/** What an offer's notification says of it, from either offer event. */
export interface OfferPayload {
  offerId: string;
  listingId: string;
  quantity: number;
  price: number;
  currency: string;
}

/** The message parameters of an offer's notification. */
export const offerParams = (p: OfferPayload) => ({
  offerId: p.offerId,
  listingId: p.listingId,
  quantity: p.quantity,
  price: p.price,
  currency: p.currency,
});
