import { fillMissingPlaces } from '@rootline/geocoder';
import type { ServiceContext } from '@rootline/host';
import { farmsMissingPlace, setFarmPlace } from '../db/places.repo.js';

/** Fills the country and place of farms stored without them, in the background after start-up. */
export async function fillFarmPlaces(ctx: ServiceContext, stopped: () => boolean): Promise<void> {
  try {
    await fillMissingPlaces({
      what: 'farms',
      log: ctx.log,
      stopped,
      nextBatch: (afterId, limit) => farmsMissingPlace(ctx.db, afterId, limit),
      save: (gap, place) => setFarmPlace(ctx.db, gap.id, place),
    });
  } catch (err) {
    ctx.log.error({ err }, 'place backfill of farms failed');
  }
}
