import type { Db } from '@rootline/db';
import { count, countDistinct, gte, isNotNull, max, sql } from 'drizzle-orm';
import { plants } from './schema.js';

/** Plant counts of the network statistics; `activeSince` bounds what counts as an active grower. */
export async function networkCounts(
  db: Db,
  activeSince: Date,
): Promise<{ totalPlants: number; activeGrowers: number; countriesRepresented: number }> {
  const [totals, active] = await Promise.all([
    db
      .select({
        totalPlants: count(),
        countries: countDistinct(sql`upper(trim(${plants.country}))`),
      })
      .from(plants),
    db
      .select({ growers: countDistinct(plants.ownerId) })
      .from(plants)
      .where(gte(plants.registeredAt, activeSince.toISOString())),
  ]);
  return {
    totalPlants: Number(totals[0]?.totalPlants ?? 0),
    activeGrowers: Number(active[0]?.growers ?? 0),
    countriesRepresented: Number(totals[0]?.countries ?? 0),
  };
}

/** Lineage-wide counts: plants, roots, the deepest generation, and plants per propagation type. */
export async function lineageCounts(db: Db): Promise<{
  totalPlants: number;
  rootPlants: number;
  maxGeneration: number;
  byPropagation: { propagationType: string | null; n: number }[];
}> {
  const [totals, byPropagation] = await Promise.all([
    db
      .select({
        totalPlants: count(),
        rootPlants: sql<number>`count(*) filter (where ${plants.parentId} is null)`,
        maxGeneration: max(plants.generation),
      })
      .from(plants),
    db
      .select({ propagationType: plants.propagationType, n: count() })
      .from(plants)
      .where(isNotNull(plants.propagationType))
      .groupBy(plants.propagationType),
  ]);
  return {
    totalPlants: Number(totals[0]?.totalPlants ?? 0),
    rootPlants: Number(totals[0]?.rootPlants ?? 0),
    maxGeneration: Number(totals[0]?.maxGeneration ?? 0),
    byPropagation: byPropagation.map((r) => ({ propagationType: r.propagationType, n: Number(r.n) })),
  };
}
