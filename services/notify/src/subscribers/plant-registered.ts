import { plantRegistered } from '@rootline/contracts';
import { type ServiceContext, subscribeBatch } from '@rootline/host';
import { publishLive, recordNotices } from './dispatch.js';

/**
 * Tells the owner their plant is on the ledger; anonymous plants have no owner to tell. One event per registration,
 * so they are applied in batches, one transaction each (ADR 066), and a batch's notices are written with a fixed
 * number of statements (`recordNotices`), not three per event.
 */
export const onPlantRegistered = (ctx: ServiceContext) =>
  subscribeBatch(
    plantRegistered,
    'plant-registered',
    async (batch, tx) => {
      const owned = batch.filter((e) => e.payload.ownerId);
      const notices = await recordNotices(
        ctx,
        tx,
        owned.map(({ payload: p, meta }) => ({
          sourceId: meta.eventId,
          userId: p.ownerId!,
          template: { name: 'plant-registered', params: { plantId: p.plantId, commonName: p.commonName } },
          data: { plantId: p.plantId },
          publicUrl: meta.publicUrl,
        })),
      );
      owned.forEach(({ meta }, i) => {
        const notice = notices[i];
        // Once committed, every gateway replica hands it to the person's open sockets (room `user:<id>`).
        if (notice) meta.afterCommit(() => void publishLive(ctx, notice));
      });
    },
    // Under load, notices gather for up to 50 ms (ADR 099): fewer, larger transactions. Batches of different
    // people's notices do not contend, so two may run at once.
    { batch: { max: 200, intervalMs: 50, concurrency: 2 } },
  );
