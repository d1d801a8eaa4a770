import type { Location, PrivacyLevel, ScientificNameSource } from '@rootline/contracts';
import type { Db } from '@rootline/db';
import type { PlaceGap } from '@rootline/geocoder';
import { and, asc, eq, gt, isNotNull, isNull, or } from 'drizzle-orm';
import { plants } from './schema.js';

/** Plants with coordinates but no city or country, in id order after `afterId`. */
export async function plantsMissingPlace(db: Db, afterId: string, limit: number): Promise<PlaceGap[]> {
  const rows = await db
    .select({
      id: plants.id,
      latitude: plants.latitude,
      longitude: plants.longitude,
      city: plants.city,
      country: plants.country,
      privacyLevel: plants.privacyLevel,
    })
    .from(plants)
    .where(
      and(
        gt(plants.id, afterId),
        isNotNull(plants.latitude),
        isNotNull(plants.longitude),
        or(
          isNull(plants.country),
          and(
            isNull(plants.city),
            or(eq(plants.privacyLevel, 'exact'), eq(plants.privacyLevel, 'fuzzy'), eq(plants.privacyLevel, 'city')),
          ),
        ),
      ),
    )
    .orderBy(asc(plants.id))
    .limit(limit);
  return rows.map((r) => ({
    id: r.id,
    privacyLevel: r.privacyLevel as PrivacyLevel,
    location: {
      latitude: r.latitude!,
      longitude: r.longitude!,
      ...(r.city === null ? {} : { city: r.city }),
      ...(r.country === null ? {} : { country: r.country }),
    },
  }));
}

/** Stores a plant's filled place and its location search text. */
export async function setPlantPlace(db: Db, id: string, place: Location, searchLocation: string): Promise<void> {
  await db
    .update(plants)
    .set({ city: place.city ?? null, country: place.country ?? null, searchLocation })
    .where(eq(plants.id, id));
}

/** Stores a plant's scientific name with its source, and its species search text. */
export async function setScientificName(
  db: Db,
  id: string,
  scientificName: string,
  source: ScientificNameSource,
  searchSpecies: string,
): Promise<void> {
  await db.update(plants).set({ scientificName, scientificNameSource: source, searchSpecies }).where(eq(plants.id, id));
}
