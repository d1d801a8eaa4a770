import { demandMatched, distanceBandKm } from '@rootline/contracts';
import { type ServiceContext, subscribe } from '@rootline/host';
import { notifyUser } from './dispatch.js';

/**
 * A supply met a household's demand: both sides hear of it. The grower's notice (in-app, email, push) carries the
 * distance only to the published precision of a household's location (docs/privacy.md), never finer.
 */
export const onDemandMatched = (ctx: ServiceContext) =>
  subscribe(demandMatched, 'demand-matched', async (p, meta) => {
    const params = { matchId: p.matchId, crop: p.crop, quantityKg: p.quantityKg, distanceKm: p.distanceKm };
    const data = { matchId: p.matchId, supplyId: p.supplyId };
    const banded = { ...params, distanceKm: distanceBandKm(p.distanceKm), side: 'grower' as const };
    await notifyUser(ctx, meta, p.growerId, { name: 'demand-match', params: banded }, data);
    await notifyUser(ctx, meta, p.consumerId, { name: 'demand-match', params: { ...params, side: 'consumer' } }, data);
  });
