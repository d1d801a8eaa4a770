import type { LineageAnalysis } from '@rootline/contracts/agents';
import {
  LINEAGE_LIMITS,
  type Lineage,
  type LineageNode,
  type LineageSeedLot,
  PROPAGATION_TYPES,
  type PropagationType,
  type RemoteRelative,
  type RemoteVerificationState,
} from '@rootline/contracts/plants';
import { haversineKm } from '@rootline/domain';

/** A plant of a lineage as the repository reads it; `depth` counts levels from the plant asked about. */
export interface LineagePlant {
  id: string;
  commonName: string;
  scientificName: string | null;
  generation: number;
  propagationType: PropagationType | null;
  parentId: string | null;
  ownerId: string;
  ownerName: string;
  /** Who stated the name of an owner without an account (their account name), else null. */
  ownerNameStatedBy?: string | null;
  /** The registering account. */
  registeredBy?: string | null;
  registeredAt: string;
  latitude: number | null;
  longitude: number | null;
  country: string | null;
  /** The seed lot the plant was grown from (ADR 270), else null or absent. */
  seedLotId?: string | null;
  depth: number;
}

/** Depths asked for, with the documented defaults. */
export function lineageDepths(q: { pedigreeDepth?: number; progenyDepth?: number }): {
  pedigreeDepth: number;
  progenyDepth: number;
} {
  return {
    pedigreeDepth: q.pedigreeDepth ?? LINEAGE_LIMITS.defaultPedigreeDepth,
    progenyDepth: q.progenyDepth ?? LINEAGE_LIMITS.defaultProgenyDepth,
  };
}

/** Breadth-first order: by depth, then registration time, then id, so equal inputs give equal answers. */
export function byLevel(a: LineagePlant, b: LineagePlant): number {
  return a.depth - b.depth || a.registeredAt.localeCompare(b.registeredAt) || a.id.localeCompare(b.id);
}

function toNode(p: LineagePlant, lots: ReadonlyMap<string, LineageSeedLot>): LineageNode {
  return {
    id: p.id,
    commonName: p.commonName,
    scientificName: p.scientificName,
    generation: p.generation,
    propagationType: p.propagationType,
    parentId: p.parentId,
    owner: p.ownerNameStatedBy
      ? { id: p.ownerId, name: p.ownerName, statedBy: { id: p.registeredBy ?? null, name: p.ownerNameStatedBy } }
      : { id: p.ownerId, name: p.ownerName },
    seedLot: p.seedLotId ? (lots.get(p.seedLotId) ?? null) : null,
    depth: p.depth,
  };
}

/**
 * The lineage answer from what the repository read: the ancestors (nearest first) and at most `maxDescendants + 1`
 * descendants (one more than returned, to tell whether the list was cut), with the seed lots they name (`lots`). Every plant has at most one parent and a
 * parent always exists before its child, so a lineage is a tree and the walks end.
 */
export function buildLineage(
  plant: LineagePlant,
  ancestors: LineagePlant[],
  descendants: LineagePlant[],
  depths: { pedigreeDepth: number; progenyDepth: number },
  maxDescendants: number = LINEAGE_LIMITS.maxDescendants,
  lots: ReadonlyMap<string, LineageSeedLot> = new Map(),
  remoteRelatives: readonly RemoteRelative[] = [],
): Lineage {
  const node = (p: LineagePlant) => toNode(p, lots);
  const up = [...ancestors].sort((a, b) => a.depth - b.depth);
  const down = [...descendants].sort(byLevel);
  const top = up.length > 0 ? up[up.length - 1]! : plant;
  return {
    plant: node(plant),
    ancestors: up.map(node),
    descendants: down.slice(0, maxDescendants).map(node),
    remoteRelatives: [...remoteRelatives],
    pedigreeDepth: depths.pedigreeDepth,
    progenyDepth: depths.progenyDepth,
    reachedRoot: top.parentId === null,
    truncated: down.length > maxDescendants,
  };
}

/**
 * The plant whose parent on another node a lineage may show: its topmost plant (the plant or its last ancestor),
 * when it has no parent here and one more level up is within `pedigreeDepth`; null otherwise. Only a plant
 * without a parent here can have one elsewhere, and descendants always have theirs here.
 */
export function remoteChildOf(
  plant: LineagePlant,
  ancestors: readonly LineagePlant[],
  pedigreeDepth: number,
): LineagePlant | null {
  const top = ancestors.reduce<LineagePlant>((a, b) => (b.depth > a.depth ? b : a), plant);
  return top.parentId === null && top.depth + 1 <= pedigreeDepth ? top : null;
}

/** A stored link to a parent on another node (plants.remote_parents). */
export interface RemoteParentLink {
  plantId: string;
  peer: string;
  peerUrl: string;
  remotePlantId: string;
  commonName: string | null;
  scientificName: string | null;
  generation: number | null;
  blockHash: string;
  bundleDigest: string;
  checkpointSize: number;
  checkpointRoot: string;
  verifiedAt: string;
}

/**
 * A link's state now, from the peers' states the transparency service gives (null when it could not be asked):
 * `fork` once the peer's log has forked, `unknown` when its state cannot be read (not asked, or no longer a peer),
 * `verified` otherwise: the bundle verified when the link was made, and the peer's history has stayed one since.
 */
export function remoteState(peer: string, peerStates: ReadonlyMap<string, string> | null): RemoteVerificationState {
  const state = peerStates?.get(peer);
  if (state === undefined) return 'unknown';
  return state === 'fork' ? 'fork' : 'verified';
}

/** A remote parent as the lineage shows it. */
export function toRemoteRelative(
  link: RemoteParentLink,
  child: Pick<LineagePlant, 'id' | 'propagationType'>,
  state: RemoteVerificationState,
): RemoteRelative {
  return {
    childId: child.id,
    plantId: link.remotePlantId,
    commonName: link.commonName,
    scientificName: link.scientificName,
    generation: link.generation,
    propagationType: child.propagationType ?? 'clone',
    node: { peer: link.peer, url: link.peerUrl },
    verification: {
      state,
      checkpoint: { treeSize: link.checkpointSize, rootHash: link.checkpointRoot },
      bundleDigest: link.bundleDigest,
      blockHash: link.blockHash,
      verifiedAt: link.verifiedAt,
    },
  };
}

/** Zero for every propagation type. */
export function emptyPropagationMix(): Record<PropagationType, number> {
  return Object.fromEntries(PROPAGATION_TYPES.map((t) => [t, 0])) as Record<PropagationType, number>;
}

/**
 * Lineage analysis of a plant: ancestor and descendant counts, deepest generation, how its descendants were
 * propagated, and how far they spread (over disclosed, possibly obfuscated, locations).
 */
export function analyseLineage(
  plant: LineagePlant,
  ancestors: LineagePlant[],
  descendants: LineagePlant[],
  truncated: boolean,
): LineageAnalysis {
  const top = ancestors.reduce<LineagePlant>((a, b) => (b.depth > a.depth ? b : a), plant);
  const mix = emptyPropagationMix();
  let deepest = plant.generation;
  for (const d of descendants) {
    if (d.propagationType) mix[d.propagationType] += 1;
    deepest = Math.max(deepest, d.generation);
  }
  const located = [plant, ...descendants].filter(
    (p): p is LineagePlant & { latitude: number; longitude: number } => p.latitude !== null && p.longitude !== null,
  );
  const countries = [...new Set([plant, ...descendants].flatMap((p) => (p.country ? [p.country.trim()] : [])))].sort();
  let maxDistanceKm: number | null = null;
  if (plant.latitude !== null && plant.longitude !== null && located.length > 1) {
    const origin = { latitude: plant.latitude, longitude: plant.longitude };
    maxDistanceKm = Math.max(...located.map((p) => haversineKm(origin, p)));
  }
  const boundingBox =
    located.length === 0
      ? null
      : {
          minLatitude: Math.min(...located.map((p) => p.latitude)),
          maxLatitude: Math.max(...located.map((p) => p.latitude)),
          minLongitude: Math.min(...located.map((p) => p.longitude)),
          maxLongitude: Math.max(...located.map((p) => p.longitude)),
        };
  return {
    plantId: plant.id,
    generation: plant.generation,
    rootId: top.parentId === null ? top.id : null,
    ancestorCount: ancestors.length,
    descendantCount: descendants.length,
    deepestGeneration: deepest,
    propagationMix: mix,
    geographicSpread: { locatedPlants: located.length, countries, maxDistanceKm, boundingBox },
    truncated,
  };
}
