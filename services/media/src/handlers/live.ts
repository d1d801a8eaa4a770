import { realtimePublished } from '@rootline/contracts';
import type { ServiceContext } from '@rootline/host';
import type { FileRow } from '../db/files.repo.js';

/**
 * Tells the plant's live room that its photos changed (event `plant.photos`: plant id, file id, added or removed), so
 * an open page of the plant shows the new photo without a reload. The room is joined by those who may read the plant,
 * who may read its photos too. A lost signal only loses the live copy: the photo is stored.
 */
export async function announcePlantPhoto(ctx: ServiceContext, row: FileRow, change: 'added' | 'removed') {
  if (row.entityType !== 'plant' || !row.entityId || row.kind !== 'image') return;
  try {
    await ctx.bus.broadcast(realtimePublished.subject, {
      room: `plant:${row.entityId}`,
      event: 'plant.photos',
      data: { plantId: row.entityId, fileId: row.id, change },
      sentAt: ctx.clock.now().toISOString(),
    });
  } catch (err) {
    ctx.log.warn({ err }, 'plant photo not announced live');
  }
}
