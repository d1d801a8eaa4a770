import { plantGet } from '@rootline/contracts';
import type { Db } from '@rootline/db';
import { call, type HandlerContext, type ServiceContext } from '@rootline/host';
import { findPlantEnvironment, type PlantEnvironmentRow } from '../db/environment.repo.js';
import { speciesKey } from '../domain/ranges.js';

/** What the environment service needs to know of a plant. */
export interface PlantFacts {
  plantId: string;
  ownerId: string;
  species: string | null;
  commonName: string;
}

/** The plant as the plants service answers it now (NOT_FOUND for an unknown plant); its tables are never read. */
export async function askPlants(ctx: ServiceContext, caller: HandlerContext, plantId: string): Promise<PlantFacts> {
  const plant = await call(ctx.bus, plantGet, { plantId }, caller);
  return {
    plantId,
    ownerId: plant.owner.id,
    species: speciesKey(plant.scientificName),
    commonName: plant.commonName,
  };
}

/**
 * A plant's environment row, or, for a plant without records, its facts from the plants service (which answers
 * NOT_FOUND for a plant that does not exist) with an empty environment.
 */
export async function environmentOf(
  ctx: ServiceContext,
  db: Db,
  caller: HandlerContext,
  plantId: string,
): Promise<{ facts: PlantFacts; row: PlantEnvironmentRow | undefined }> {
  const row = await findPlantEnvironment(db, plantId);
  if (row) return { facts: row, row };
  return { facts: await askPlants(ctx, caller, plantId), row: undefined };
}
