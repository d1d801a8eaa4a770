import { fillMissingPlaces } from '@rootline/geocoder';
import type { ServiceContext } from '@rootline/host';
import { plantsMissingPlace, setPlantPlace } from '../db/updates.repo.js';
import { searchTexts } from '../domain/search.js';

/**
 * Fills the country and place of plants stored before reverse geocoding (or registered with coordinates alone),
 * in the background after start-up; replicas may run it at once, each write being the same. Never fails the
 * service: an error is logged and the next start tries again.
 */
export async function fillPlantPlaces(ctx: ServiceContext, stopped: () => boolean): Promise<void> {
  try {
    await fillMissingPlaces({
      what: 'plants',
      log: ctx.log,
      stopped,
      nextBatch: (afterId, limit) => plantsMissingPlace(ctx.db, afterId, limit),
      save: (gap, place) =>
        setPlantPlace(
          ctx.db,
          gap.id,
          place,
          searchTexts({ commonName: '', ownerName: '', city: place.city, country: place.country }).location,
        ),
    });
  } catch (err) {
    ctx.log.error({ err }, 'place backfill of plants failed');
  }
}
