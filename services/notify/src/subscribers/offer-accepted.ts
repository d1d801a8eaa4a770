import { offerAccepted } from '@rootline/contracts';
import { type ServiceContext, subscribe } from '@rootline/host';
import { offerParams } from '../domain/offers.js';
import { notifyUser } from './dispatch.js';

/** An offer (or a counter) was accepted: the other party hears of it; the acting user is in the event's context. */
export const onOfferAccepted = (ctx: ServiceContext) =>
  subscribe(offerAccepted, 'offer-accepted', async (p, meta) => {
    const data = { offerId: p.offerId, listingId: p.listingId };
    const to = meta.actor?.id === p.buyerId ? p.sellerId : p.buyerId;
    await notifyUser(ctx, meta, to, { name: 'offer-accepted', params: offerParams(p) }, data);
  });
