import { demandMatched } from '@rootline/contracts';
import { type ServiceContext, subscribe } from '@rootline/host';
import { notifyUser } from './dispatch.js';

/** A supply met a household's demand: both sides hear of it. */
export const onDemandMatched = (ctx: ServiceContext) =>
  subscribe(demandMatched, 'demand-matched', async (p, meta) => {
    const params = { matchId: p.matchId, crop: p.crop, quantityKg: p.quantityKg, distanceKm: p.distanceKm };
    const data = { matchId: p.matchId, supplyId: p.supplyId };
    await notifyUser(ctx, meta, p.growerId, { name: 'demand-match', params: { ...params, side: 'grower' } }, data);
    await notifyUser(ctx, meta, p.consumerId, { name: 'demand-match', params: { ...params, side: 'consumer' } }, data);
  });
