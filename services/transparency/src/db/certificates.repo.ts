import type { Db } from '@rootline/db';
import { and, asc, eq, inArray, like } from 'drizzle-orm';
import { auditEntries } from './schema.js';

/**
 * The audit entry that recorded a plant's registration (`plant.registered` naming it), if recorded yet. The entry's
 * `entity` is the first `…Id` property of the payload as it arrived, which is the owner for owned plants and the
 * plant for anonymous ones, so both are looked up (an index range each) and the body must name the plant.
 */
export async function registrationEntry(
  db: Db,
  plantId: string,
  ownerId: string,
): Promise<{ index: number; leafHash: string } | undefined> {
  const [row] = await db
    .select({ index: auditEntries.index, leafHash: auditEntries.leafHash })
    .from(auditEntries)
    .where(
      and(
        eq(auditEntries.kind, 'plant.registered'),
        inArray(auditEntries.entity, [plantId, ownerId]),
        // The body is canonical JSON: the payload's plantId is written exactly so.
        like(auditEntries.body, `%"plantId":"${plantId}"%`),
      ),
    )
    .orderBy(asc(auditEntries.index))
    .limit(1);
  return row;
}
