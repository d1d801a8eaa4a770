import { harvestReady } from '@rootline/contracts';
import { type ServiceContext, subscribe } from '@rootline/host';
import { notifyUser } from './dispatch.js';

/** A batch reached its expected harvest date: the farm's owner hears it is ready. */
export const onHarvestReady = (ctx: ServiceContext) =>
  subscribe(harvestReady, 'harvest-ready', async (p, meta) => {
    const params = { farmId: p.farmId, farmName: p.farmName, batchId: p.batchId, crop: p.crop };
    await notifyUser(ctx, meta, p.ownerId, { name: 'harvest-ready', params }, { farmId: p.farmId, batchId: p.batchId });
  });
