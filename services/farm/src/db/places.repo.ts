import type { Location } from '@rootline/contracts';
import type { Db } from '@rootline/db';
import type { PlaceGap } from '@rootline/geocoder';
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { farms } from './schema.js';

/** Farms whose location has no country or no city, in id order after `afterId` (a farm's point is exact). */
export async function farmsMissingPlace(db: Db, afterId: string, limit: number): Promise<PlaceGap[]> {
  const rows = await db
    .select({ id: farms.id, location: farms.location })
    .from(farms)
    .where(
      and(gt(farms.id, afterId), sql`(${farms.location}->>'country' is null or ${farms.location}->>'city' is null)`),
    )
    .orderBy(asc(farms.id))
    .limit(limit);
  return rows.map((r) => ({ id: r.id, privacyLevel: 'exact', location: r.location as Location }));
}

/** Stores a farm's location with its place filled. */
export async function setFarmPlace(db: Db, id: string, location: Location): Promise<void> {
  await db.update(farms).set({ location }).where(eq(farms.id, id));
}
