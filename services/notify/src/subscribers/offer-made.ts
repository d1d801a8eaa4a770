import { offerMade } from '@rootline/contracts';
import { type ServiceContext, subscribe } from '@rootline/host';
import { offerParams } from '../domain/offers.js';
import { notifyUser } from './dispatch.js';

/** A buyer made an offer: the seller hears of it. */
export const onOfferMade = (ctx: ServiceContext) =>
  subscribe(offerMade, 'offer-made', async (p, meta) => {
    const data = { offerId: p.offerId, listingId: p.listingId };
    await notifyUser(ctx, meta, p.sellerId, { name: 'offer-made', params: offerParams(p) }, data);
  });
