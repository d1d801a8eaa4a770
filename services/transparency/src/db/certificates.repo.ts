import type { Db } from '@rootline/db';
import { and, asc, eq } from 'drizzle-orm';
import { auditEntries } from './schema.js';

/** The audit entry that recorded a plant's registration (`plant.registered` about it), if recorded yet. */
export async function registrationEntry(
  db: Db,
  plantId: string,
): Promise<{ index: number; leafHash: string } | undefined> {
  const [row] = await db
    .select({ index: auditEntries.index, leafHash: auditEntries.leafHash })
    .from(auditEntries)
    .where(and(eq(auditEntries.kind, 'plant.registered'), eq(auditEntries.entity, plantId)))
    .orderBy(asc(auditEntries.index))
    .limit(1);
  return row;
}
