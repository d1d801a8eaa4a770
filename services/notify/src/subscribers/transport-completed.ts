import { transportCompleted } from '@rootline/contracts';
import { type ServiceContext, subscribe } from '@rootline/host';
import { notifyUser } from './dispatch.js';

/**
 * A journey event handed a plant or seed lot to someone else: the recipient hears it is coming (a transport
 * alert). Events a handler records for themselves (planting, growing, their own harvest) notify nobody.
 */
export const onTransportCompleted = (ctx: ServiceContext) =>
  subscribe(transportCompleted, 'transport-completed', async (p, meta) => {
    if (!p.recipientId || p.recipientId === p.handlerId) return;
    const params = {
      transportEventId: p.eventId,
      kind: p.kind,
      plantId: p.plantId,
      seedLotId: p.seedLotId,
      distanceKm: p.distanceKm,
    };
    const data = { transportEventId: p.eventId, plantId: p.plantId, seedLotId: p.seedLotId };
    await notifyUser(ctx, meta, p.recipientId, { name: 'transport-arriving', params }, data);
  });
