import type { Location, PrivacyLevel } from '@rootline/contracts';
import { locate } from './reverse.js';

/** A stored record whose location lacks its country or place. */
export interface PlaceGap {
  id: string;
  location: Location;
  privacyLevel: PrivacyLevel;
}

export interface BackfillOptions {
  /** What the records are called in the log ("plants"). */
  what: string;
  /** The next records lacking a place, in id order after `afterId`. */
  nextBatch(afterId: string, limit: number): Promise<PlaceGap[]>;
  /** Stores what was found for one record. */
  save(gap: PlaceGap, filled: Location): Promise<void>;
  log: { info(obj: object, msg: string): void };
  batchSize?: number;
  /** Checked between batches: a stopping service ends the run early (the next start goes on from the start). */
  stopped?: () => boolean;
}

/**
 * Fills the country and place of stored records that lack them, from their stored coordinates (after their
 * privacy level: the exact point of a non-exact record was never kept), batch by batch in id order, logging its
 * progress. Idempotent: a record that gained its place is not selected again, one with none to find is passed.
 */
export async function fillMissingPlaces(options: BackfillOptions): Promise<{ seen: number; filled: number }> {
  const { batchSize = 500 } = options;
  let afterId = '';
  let seen = 0;
  let filled = 0;
  let stopped = false;
  for (;;) {
    if (options.stopped?.()) {
      stopped = true;
      break;
    }
    const batch = await options.nextBatch(afterId, batchSize);
    if (batch.length === 0) break;
    for (const gap of batch) {
      const found = await locate(gap.location, gap.privacyLevel);
      if (found.city !== gap.location.city || found.country !== gap.location.country) {
        await options.save(gap, found);
        filled++;
      }
    }
    seen += batch.length;
    afterId = batch[batch.length - 1]!.id;
    options.log.info({ what: options.what, seen, filled }, `places filled for ${filled} of ${seen} ${options.what}`);
  }
  if (seen > 0) {
    const end = stopped ? 'stopped (the next start goes on)' : 'done';
    options.log.info({ what: options.what, seen, filled, stopped }, `place backfill of ${options.what} ${end}`);
  }
  return { seen, filled };
}
