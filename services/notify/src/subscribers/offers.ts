import { offerAccepted, offerMade } from '@rootline/contracts';
import { type ServiceContext, subscribe } from '@rootline/host';
import { notifyUser } from './dispatch.js';

type OfferPayload = {
  offerId: string;
  listingId: string;
  quantity: number;
  price: number;
  currency: string;
};
const paramsOf = (p: OfferPayload) => ({
  offerId: p.offerId,
  listingId: p.listingId,
  quantity: p.quantity,
  price: p.price,
  currency: p.currency,
});

/** A buyer made an offer: the seller hears of it. */
export const onOfferMade = (ctx: ServiceContext) =>
  subscribe(offerMade, 'offer-made', async (p, meta) => {
    const data = { offerId: p.offerId, listingId: p.listingId };
    await notifyUser(ctx, meta, p.sellerId, { name: 'offer-made', params: paramsOf(p) }, data);
  });

/** An offer (or a counter) was accepted: the other party hears of it; the acting user is in the event's context. */
export const onOfferAccepted = (ctx: ServiceContext) =>
  subscribe(offerAccepted, 'offer-accepted', async (p, meta) => {
    const data = { offerId: p.offerId, listingId: p.listingId };
    const to = meta.actor?.id === p.buyerId ? p.sellerId : p.buyerId;
    await notifyUser(ctx, meta, to, { name: 'offer-accepted', params: paramsOf(p) }, data);
  });
