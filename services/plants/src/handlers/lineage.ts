import { LINEAGE_LIMITS, plantLineageGet } from '@rootline/contracts';
import { handle, notFound, type ServiceContext } from '@rootline/host';
import { findAncestors, findDescendants, findLineagePlant } from '../db/lineage.repo.js';
import { findLineageSeedLots } from '../db/seed-lots.repo.js';
import { buildLineage, lineageDepths } from '../domain/lineage.js';

/** plants.lineage.get: the plant, its ancestors up to pedigreeDepth and its descendants down to progenyDepth. */
export const getLineage = (ctx: ServiceContext) =>
  handle(plantLineageGet, async (input, caller) =>
    // One database for the three reads, so the lineage is read as of one moment's replay.
    ctx.reads.run(caller, async (db) => {
      const plant = await findLineagePlant(db, input.plantId);
      if (!plant) throw notFound('Plant', input.plantId);
      const depths = lineageDepths(input);
      const [ancestors, descendants] = await Promise.all([
        findAncestors(db, plant.id, depths.pedigreeDepth),
        // One more than returned, to tell whether the list was cut.
        findDescendants(db, plant.id, depths.progenyDepth, LINEAGE_LIMITS.maxDescendants + 1),
      ]);
      // The seed lots the plants were grown from, shown between their generations (ADR 270).
      const lotIds = [...new Set([plant, ...ancestors, ...descendants].flatMap((p) => p.seedLotId ?? []))];
      const lots = await findLineageSeedLots(db, lotIds);
      return buildLineage(plant, ancestors, descendants, depths, LINEAGE_LIMITS.maxDescendants, lots);
    }),
  );
