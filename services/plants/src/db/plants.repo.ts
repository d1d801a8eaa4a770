import type { Plant } from '@rootline/contracts';
import type { Db } from '@rootline/db';
import { eq } from 'drizzle-orm';
import { plants } from './schema.js';

export type PlantRow = typeof plants.$inferInsert;

export async function insertPlant(db: Db, row: PlantRow): Promise<void> {
  await db.insert(plants).values(row);
}

/** The plant in its public shape, or undefined. */
export async function findPlant(db: Db, id: string): Promise<Plant | undefined> {
  const [r] = await db.select().from(plants).where(eq(plants.id, id)).limit(1);
  if (!r) return undefined;
  return {
    id: r.id,
    commonName: r.commonName,
    scientificName: r.scientificName,
    location: {
      latitude: r.latitude,
      longitude: r.longitude,
      ...(r.city === null ? {} : { city: r.city }),
      ...(r.country === null ? {} : { country: r.country }),
    },
    owner: { id: r.ownerId, name: r.ownerName },
    generation: r.generation,
    parentId: r.parentId,
    block: { index: r.blockIndex, hash: r.blockHash, txId: r.txId },
    registeredAt: new Date(r.registeredAt).toISOString(),
  };
}
