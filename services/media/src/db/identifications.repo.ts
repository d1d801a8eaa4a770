import type { Identification, Organ, SpeciesCandidate } from '@rootline/contracts';
import type { Db } from '@rootline/db';
import { eq } from 'drizzle-orm';
import { identifications } from './schema.js';

type Row = typeof identifications.$inferSelect;

function toIdentification(r: Row): Identification {
  return {
    id: r.id,
    provider: r.provider,
    organs: r.organs as Organ[],
    candidates: r.candidates as SpeciesCandidate[],
    requestedBy: r.requestedBy,
    createdAt: new Date(r.createdAt).toISOString(),
  };
}

export async function insertIdentification(db: Db, value: Identification): Promise<Identification> {
  const [row] = await db.insert(identifications).values(value).returning();
  return toIdentification(row!);
}

export async function findIdentification(db: Db, id: string): Promise<Identification | undefined> {
  const [row] = await db.select().from(identifications).where(eq(identifications.id, id)).limit(1);
  return row && toIdentification(row);
}
