import { fillMissingPlaces } from '@rootline/geocoder';
import type { ServiceContext } from '@rootline/host';
import { type EventEnd, eventsMissingPlace, setEventPlace } from '../db/places.repo.js';

/** How each end of an event is named in the log. */
const WHAT: Record<EventEnd, string> = { from: 'transport event origins', to: 'transport event destinations' };

/**
 * Fills the country and place of the locations of journey events stored without them (before reverse geocoding),
 * in the background after start-up, from the stored point at the event's privacy level as a new event's are (see
 * the plants service's backfill). Replicas may run it at once, each write being the same. Never fails the service:
 * an error is logged and the next start tries again.
 */
export async function fillEventPlaces(
  ctx: Pick<ServiceContext, 'db' | 'log'>,
  stopped: () => boolean,
  batchSize?: number,
): Promise<void> {
  for (const end of ['from', 'to'] as EventEnd[]) {
    try {
      await fillMissingPlaces({
        what: WHAT[end],
        log: ctx.log,
        stopped,
        ...(batchSize === undefined ? {} : { batchSize }),
        nextBatch: (afterId, limit) => eventsMissingPlace(ctx.db, end, afterId, limit),
        save: (gap, place) => setEventPlace(ctx.db, end, gap.id, place),
      });
    } catch (err) {
      ctx.log.error({ err, end }, 'place backfill of transport events failed');
    }
  }
}
