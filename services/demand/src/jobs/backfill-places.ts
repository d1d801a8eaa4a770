import { fillMissingPlaces } from '@rootline/geocoder';
import type { ServiceContext } from '@rootline/host';
import { type PlaceTable, rowsMissingPlace, setPlace } from '../db/places.repo.js';

/**
 * Fills the country and place of listings, supply commitments and demand preferences stored without them, in the
 * background after start-up (see the plants service's backfill). Never fails the service.
 */
export async function fillDemandPlaces(ctx: ServiceContext, stopped: () => boolean): Promise<void> {
  for (const table of ['listings', 'supplies', 'preferences'] as PlaceTable[]) {
    try {
      await fillMissingPlaces({
        what: table,
        log: ctx.log,
        stopped,
        nextBatch: (afterId, limit) => rowsMissingPlace(ctx.db, table, afterId, limit),
        save: (gap, place) => setPlace(ctx.db, table, gap.id, place),
      });
    } catch (err) {
      ctx.log.error({ err, table }, 'place backfill failed');
    }
  }
}
