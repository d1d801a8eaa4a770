import { plantRegistered } from '@rootline/contracts';
import { type ServiceContext, subscribeBatch } from '@rootline/host';
import { notifyUser } from '../dispatch.js';

/**
 * Tells the owner their plant is on the ledger; anonymous plants have no owner to tell. One event per registration,
 * so they are applied in batches, one transaction each (ADR 066).
 */
export const onPlantRegistered = (ctx: ServiceContext) =>
  subscribeBatch(
    plantRegistered,
    'plant-registered',
    async (batch) => {
      for (const { payload: p, meta } of batch) {
        if (!p.ownerId) continue;
        const params = { plantId: p.plantId, commonName: p.commonName };
        await notifyUser(ctx, meta, p.ownerId, { name: 'plant-registered', params }, { plantId: p.plantId });
      }
    },
    // Batches of different people's notices do not contend: several at once keep the round trips overlapped.
    { batch: { max: 50, concurrency: 4 } },
  );
