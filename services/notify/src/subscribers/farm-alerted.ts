import { farmAlerted } from '@rootline/contracts';
import { type ServiceContext, subscribe } from '@rootline/host';
import { notifyUser } from './dispatch.js';

/** Readings outside their targets: the farm's owner (named by the event) gets a farm alert. */
export const onFarmAlerted = (ctx: ServiceContext) =>
  subscribe(farmAlerted, 'farm-alerted', async (p, meta) => {
    const metrics = [...new Set(p.deviations.map((d) => d.metric))];
    const params = {
      farmId: p.farmId,
      farmName: p.farmName,
      batchId: p.batchId,
      deviationCount: p.deviationCount,
      metrics,
    };
    await notifyUser(ctx, meta, p.ownerId, { name: 'farm-alert', params }, { farmId: p.farmId, batchId: p.batchId });
  });
