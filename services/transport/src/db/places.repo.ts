import type { Location, PrivacyLevel } from '@rootline/contracts';
import type { Db } from '@rootline/db';
import type { PlaceGap } from '@rootline/geocoder';
import { and, asc, eq, gt, isNotNull, sql } from 'drizzle-orm';
import { events } from './schema.js';

/** The two locations of an event: where it came from and where it went. */
const ENDS = { from: events.fromLocation, to: events.toLocation } as const;
export type EventEnd = keyof typeof ENDS;

/**
 * Events whose location at `end` has no country (or no city, where the event's privacy level lets a place be
 * named), in id order after `afterId`. The location is the stored one, after its privacy level.
 */
export async function eventsMissingPlace(db: Db, end: EventEnd, afterId: string, limit: number): Promise<PlaceGap[]> {
  const column = ENDS[end];
  const rows = await db
    .select({ id: events.id, location: column, privacyLevel: events.privacyLevel })
    .from(events)
    .where(
      and(
        gt(events.id, afterId),
        isNotNull(column),
        sql`(${column}->>'country' is null or (${column}->>'city' is null and ${events.privacyLevel} in ('exact', 'fuzzy', 'city')))`,
      ),
    )
    .orderBy(asc(events.id))
    .limit(limit);
  return rows.map((r) => ({
    id: r.id,
    privacyLevel: r.privacyLevel as PrivacyLevel,
    location: r.location as unknown as Location,
  }));
}

/**
 * Adds the city and country found to one end of an event. Only those two keys are written: the stored point (and
 * so the distance, and what the ledger holds of it) stays as it was.
 */
export async function setEventPlace(db: Db, end: EventEnd, id: string, place: Location): Promise<void> {
  const column = ENDS[end];
  const named = {
    ...(place.city === undefined ? {} : { city: place.city }),
    ...(place.country === undefined ? {} : { country: place.country }),
  };
  const merged = sql`${column} || ${JSON.stringify(named)}::jsonb`;
  await db
    .update(events)
    .set(end === 'from' ? { fromLocation: merged } : { toLocation: merged })
    .where(eq(events.id, id));
}
