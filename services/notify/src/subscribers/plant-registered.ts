import { plantRegistered } from '@rootline/contracts';
import { type ServiceContext, subscribe } from '@rootline/host';
import { notifyUser } from '../dispatch.js';

/** Tells the owner their plant is on the ledger; anonymous plants have no owner to tell. */
export const onPlantRegistered = (ctx: ServiceContext) =>
  subscribe(plantRegistered, 'plant-registered', async (p, meta) => {
    if (!p.ownerId) return;
    const params = { plantId: p.plantId, commonName: p.commonName };
    await notifyUser(ctx, meta, p.ownerId, { name: 'plant-registered', params }, { plantId: p.plantId });
  });
