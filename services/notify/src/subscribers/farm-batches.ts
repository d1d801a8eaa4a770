import { type CallContext, farmAlerted, farmGet, harvestReady } from '@rootline/contracts';
import { call, type ServiceContext, subscribe } from '@rootline/host';
import { notifyUser } from '../dispatch.js';

const system: CallContext = { requestId: 'notify-farm-owner' };

/**
 * The farm's owner and name, asked of the farm service (farm events name the farm, not its owner). A farm
 * service that does not answer fails the event, which the stream delivers again later.
 */
async function farmOf(ctx: ServiceContext, farmId: string) {
  const farm = await call(ctx.bus, farmGet, { farmId }, system);
  return { ownerId: farm.ownerId, name: farm.name };
}

/** Readings outside their targets: the farm's owner gets a farm alert. */
export const onFarmAlerted = (ctx: ServiceContext) =>
  subscribe(farmAlerted, 'farm-alerted', async (p, meta) => {
    const farm = await farmOf(ctx, p.farmId);
    const metrics = [...new Set(p.deviations.map((d) => d.metric))];
    const params = {
      farmId: p.farmId,
      farmName: farm.name,
      batchId: p.batchId,
      deviationCount: p.deviationCount,
      metrics,
    };
    await notifyUser(ctx, meta, farm.ownerId, { name: 'farm-alert', params }, { farmId: p.farmId, batchId: p.batchId });
  });

/** A batch reached its expected harvest date: the farm's owner hears it is ready. */
export const onHarvestReady = (ctx: ServiceContext) =>
  subscribe(harvestReady, 'harvest-ready', async (p, meta) => {
    const farm = await farmOf(ctx, p.farmId);
    const params = { farmId: p.farmId, farmName: farm.name, batchId: p.batchId, crop: p.crop };
    await notifyUser(
      ctx,
      meta,
      farm.ownerId,
      { name: 'harvest-ready', params },
      { farmId: p.farmId, batchId: p.batchId },
    );
  });
