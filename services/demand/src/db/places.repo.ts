import type { Location, PrivacyLevel } from '@rootline/contracts';
import type { Db } from '@rootline/db';
import type { PlaceGap } from '@rootline/geocoder';
import { and, asc, eq, gt, isNotNull, isNull, or } from 'drizzle-orm';
import { listings, preferences, supplies } from './schema.js';

/** The tables of this service that store a place beside their coordinates. */
const TABLES = { listings, supplies, preferences } as const;
export type PlaceTable = keyof typeof TABLES;

/**
 * Rows of a table with coordinates but no country (or no city, where the privacy level lets a place be named), in
 * id order after `afterId`. Supply and preferences are exact points (private to their owner).
 */
export async function rowsMissingPlace(db: Db, table: PlaceTable, afterId: string, limit: number): Promise<PlaceGap[]> {
  const t = TABLES[table];
  const level = 'privacyLevel' in t ? t.privacyLevel : null;
  const rows = await db
    .select({
      id: t.id,
      latitude: t.latitude,
      longitude: t.longitude,
      city: t.city,
      country: t.country,
      ...(level ? { privacyLevel: level } : {}),
    })
    .from(t)
    .where(
      and(
        gt(t.id, afterId),
        isNotNull(t.latitude),
        or(
          isNull(t.country),
          level ? and(isNull(t.city), or(eq(level, 'exact'), eq(level, 'fuzzy'), eq(level, 'city'))) : isNull(t.city),
        ),
      ),
    )
    .orderBy(asc(t.id))
    .limit(limit);
  return rows.map((r) => ({
    id: r.id,
    privacyLevel: ((r as { privacyLevel?: string }).privacyLevel ?? 'exact') as PrivacyLevel,
    location: {
      latitude: r.latitude!,
      longitude: r.longitude!,
      ...(r.city === null ? {} : { city: r.city }),
      ...(r.country === null ? {} : { country: r.country }),
    },
  }));
}

/** Stores the place found for one row. */
export async function setPlace(db: Db, table: PlaceTable, id: string, place: Location): Promise<void> {
  const t = TABLES[table];
  await db
    .update(t)
    .set({ city: place.city ?? null, country: place.country ?? null })
    .where(eq(t.id, id));
}
