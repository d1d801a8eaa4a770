import { AppError, identificationGet, plantSpeciesAccept } from '@rootline/contracts';
import { assertOwnerOrAdmin } from '@rootline/domain';
import { call, handle, notFound, type ServiceContext } from '@rootline/host';
import { findPlant } from '../db/plants.repo.js';
import { setScientificName } from '../db/updates.repo.js';
import { searchTexts } from '../domain/search.js';

/**
 * plants.species.accept: one candidate of a photo identification becomes the plant's scientific name, recorded with
 * its source (the identification, its provider and score). The plant is the caller's (or an ADMIN acts); the
 * identification is the caller's, as the media service answers it (NOT_FOUND otherwise). The ledger keeps the name
 * the plant was registered with; the registry answers the accepted one.
 */
export const acceptSpecies = (ctx: ServiceContext) =>
  handle(plantSpeciesAccept, async ({ plantId, identificationId, scientificName }, caller) => {
    const plant = await findPlant(ctx.db, plantId);
    if (!plant) throw notFound('Plant', plantId);
    assertOwnerOrAdmin(caller, plant.owner.id);
    const identification = await call(ctx.bus, identificationGet, { identificationId }, caller);
    const candidate = identification.candidates.find(
      (c) => c.scientificName.toLowerCase() === scientificName.trim().toLowerCase(),
    );
    if (!candidate) {
      throw new AppError('VALIDATION_ERROR', 'scientificName: not a candidate of this identification', {
        field: 'scientificName',
        candidates: identification.candidates.map((c) => c.scientificName),
      });
    }
    const source = {
      source: 'identification' as const,
      author: candidate.author,
      family: candidate.family,
      givenName: null,
      identificationId,
      provider: identification.provider,
      score: candidate.score,
      recordedAt: ctx.clock.now().toISOString(),
    };
    const species = searchTexts({
      commonName: plant.commonName,
      scientificName: candidate.scientificName,
      ownerName: '',
    }).species;
    await setScientificName(ctx.db, plantId, candidate.scientificName, source, species);
    return (await findPlant(ctx.db, plantId))!;
  });
