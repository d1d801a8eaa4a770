import { federationPeersList, LINEAGE_LIMITS, plantLineageGet, type RemoteRelative } from '@rootline/contracts';
import { call, handle, notFound, type ServiceContext } from '@rootline/host';
import { findAncestors, findDescendants, findLineagePlant } from '../db/lineage.repo.js';
import { findRemoteParents } from '../db/remote-parents.repo.js';
import { findLineageSeedLots } from '../db/seed-lots.repo.js';
import { buildLineage, lineageDepths, remoteChildOf, remoteState, toRemoteRelative } from '../domain/lineage.js';

/** How long the peers' states may take to come: past it, remote relatives are answered `unknown`. */
const PEER_STATES_TIMEOUT_MS = 2_000;

/** plants.lineage.get: the plant, its ancestors up to pedigreeDepth and its descendants down to progenyDepth. */
export const getLineage = (ctx: ServiceContext) =>
  handle(plantLineageGet, async (input, caller) => {
    // One database for the reads, so the lineage is read as of one moment's replay.
    const read = await ctx.reads.run(caller, async (db) => {
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
      // A parent on another node, above the topmost plant (ADR 308).
      const child = remoteChildOf(plant, ancestors, depths.pedigreeDepth);
      const links = child ? await findRemoteParents(db, [child.id]) : [];
      return { plant, ancestors, descendants, depths, lots, child, links };
    });
    const { plant, ancestors, descendants, depths, lots, child, links } = read;
    let remote: RemoteRelative[] = [];
    if (child && links.length > 0) {
      // The peers' states now, outside any transaction: a peer that forked since turns its relatives to `fork`.
      const states = await call(ctx.bus, federationPeersList, {}, caller, PEER_STATES_TIMEOUT_MS).then(
        (r) => new Map(r.items.map((p) => [p.name, p.state])),
        () => null,
      );
      remote = links.map((link) => toRemoteRelative(link, child, remoteState(link.peer, states)));
    }
    return buildLineage(plant, ancestors, descendants, depths, LINEAGE_LIMITS.maxDescendants, lots, remote);
  });
