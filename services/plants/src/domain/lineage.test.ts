import { LINEAGE_LIMITS } from '@rootline/contracts/plants';
import { describe, expect, it } from 'vitest';
import {
  analyseLineage,
  buildLineage,
  type LineagePlant,
  lineageDepths,
  remoteChildOf,
  remoteState,
  toRemoteRelative,
} from './lineage.js';

let n = 0;
function plant(over: Partial<LineagePlant> = {}): LineagePlant {
  n += 1;
  return {
    id: `plt_${String(n).padStart(4, '0')}`,
    commonName: 'Tomato',
    scientificName: null,
    generation: 0,
    propagationType: null,
    parentId: null,
    ownerId: 'usr_1',
    ownerName: 'Ada',
    registeredAt: `2026-01-01T00:00:${String(n % 60).padStart(2, '0')}.000Z`,
    latitude: 52,
    longitude: 5,
    country: 'NL',
    depth: 0,
    ...over,
  };
}

describe('lineageDepths', () => {
  it('defaults to the root upwards and the documented depth downwards', () => {
    expect(lineageDepths({})).toEqual({
      pedigreeDepth: LINEAGE_LIMITS.defaultPedigreeDepth,
      progenyDepth: LINEAGE_LIMITS.defaultProgenyDepth,
    });
    expect(lineageDepths({ pedigreeDepth: 0, progenyDepth: 2 })).toEqual({ pedigreeDepth: 0, progenyDepth: 2 });
  });
});

describe('buildLineage', () => {
  const root = plant({ generation: 0 });
  const mid = plant({ generation: 1, parentId: root.id, propagationType: 'seed', depth: 1 });
  const self = plant({ generation: 2, parentId: mid.id, propagationType: 'cutting' });
  const kidB = plant({ generation: 3, parentId: self.id, propagationType: 'clone', depth: 1 });
  const kidA = plant({ generation: 3, parentId: self.id, propagationType: 'graft', depth: 1 });
  const grandkid = plant({ generation: 4, parentId: kidA.id, propagationType: 'division', depth: 2 });
  const rootAbove = { ...root, depth: 2 };

  it('lists ancestors nearest first and descendants breadth first, and says it reached the root', () => {
    const l = buildLineage(self, [rootAbove, mid], [grandkid, kidA, kidB], { pedigreeDepth: 5, progenyDepth: 5 });
    expect(l.ancestors.map((a) => [a.id, a.depth])).toEqual([
      [mid.id, 1],
      [root.id, 2],
    ]);
    expect(l.descendants.map((d) => d.id)).toEqual([kidB.id, kidA.id, grandkid.id]);
    expect(l.plant).toEqual({
      id: self.id,
      commonName: 'Tomato',
      scientificName: null,
      generation: 2,
      propagationType: 'cutting',
      parentId: mid.id,
      owner: { id: 'usr_1', name: 'Ada' },
      seedLot: null,
      depth: 0,
    });
    expect(l.reachedRoot).toBe(true);
    expect(l.truncated).toBe(false);
  });

  it('does not claim the root when the walk stopped below it', () => {
    const l = buildLineage(self, [mid], [], { pedigreeDepth: 1, progenyDepth: 0 });
    expect(l.reachedRoot).toBe(false);
    expect(buildLineage(root, [], [], { pedigreeDepth: 0, progenyDepth: 0 }).reachedRoot).toBe(true);
  });

  it('shows the seed lot a plant was grown from between it and its parent', () => {
    const lot = { id: 'lot_01', crop: 'tomato', variety: null, harvestYear: 2025, parentPlantIds: [mid.id, root.id] };
    const sown = { ...self, seedLotId: lot.id };
    const l = buildLineage(sown, [mid], [kidA], { pedigreeDepth: 1, progenyDepth: 1 }, 10, new Map([[lot.id, lot]]));
    expect(l.plant.seedLot).toEqual(lot);
    expect(l.ancestors[0]?.seedLot).toBeNull();
    expect(l.descendants[0]?.seedLot).toBeNull();
    // A lot the read did not find (none should be missing) leaves the plant without one rather than failing.
    expect(buildLineage(sown, [], [], { pedigreeDepth: 0, progenyDepth: 0 }).plant.seedLot).toBeNull();
  });

  it('cuts the descendants at the maximum and says so', () => {
    const l = buildLineage(self, [], [kidA, kidB, grandkid], { pedigreeDepth: 0, progenyDepth: 5 }, 2);
    expect(l.descendants).toHaveLength(2);
    expect(l.truncated).toBe(true);
  });
});

describe('analyseLineage', () => {
  it('counts, finds the deepest generation, the propagation mix and the spread', () => {
    const self = plant({ generation: 1, parentId: 'plt_root', latitude: 52.37, longitude: 4.89, country: 'NL' });
    const root = plant({ id: 'plt_root', depth: 1 });
    const kids = [
      plant({ generation: 2, propagationType: 'cutting', depth: 1, latitude: 48.86, longitude: 2.35, country: 'FR' }),
      plant({ generation: 2, propagationType: 'cutting', depth: 1, latitude: null, longitude: null, country: null }),
      plant({ generation: 3, propagationType: 'seed', depth: 2, latitude: 52.52, longitude: 13.4, country: 'DE ' }),
    ];
    const a = analyseLineage(self, [root], kids, false);
    expect(a).toMatchObject({
      plantId: self.id,
      generation: 1,
      rootId: 'plt_root',
      ancestorCount: 1,
      descendantCount: 3,
      deepestGeneration: 3,
      truncated: false,
    });
    expect(a.propagationMix).toEqual({
      clone: 0,
      seed: 1,
      cutting: 2,
      graft: 0,
      division: 0,
      layering: 0,
      'tissue-culture': 0,
    });
    expect(a.geographicSpread.locatedPlants).toBe(3);
    expect(a.geographicSpread.countries).toEqual(['DE', 'FR', 'NL']);
    // Amsterdam–Berlin is the farthest: about 577 km.
    expect(a.geographicSpread.maxDistanceKm).toBeCloseTo(577, -1);
    expect(a.geographicSpread.boundingBox).toEqual({
      minLatitude: 48.86,
      maxLatitude: 52.52,
      minLongitude: 2.35,
      maxLongitude: 13.4,
    });
  });

  it('gives no distance for a hidden plant or one without located descendants', () => {
    const hidden = plant({ latitude: null, longitude: null, country: null });
    const a = analyseLineage(hidden, [], [plant({ depth: 1, generation: 1, propagationType: 'clone' })], false);
    expect(a.geographicSpread).toMatchObject({ locatedPlants: 1, maxDistanceKm: null });
    expect(a.rootId).toBe(hidden.id);
    const alone = analyseLineage(plant(), [], [], false);
    expect(alone.geographicSpread.maxDistanceKm).toBeNull();
    expect(alone.deepestGeneration).toBe(0);
  });

  it('has no root when the ancestors walked stop at a plant with a parent', () => {
    const self = plant({ generation: 3, parentId: 'plt_x' });
    expect(analyseLineage(self, [plant({ id: 'plt_x', parentId: 'plt_y', depth: 1 })], [], false).rootId).toBeNull();
  });
});

describe('a parent on another node', () => {
  const at = (id: string, depth: number, parentId: string | null) => ({
    id,
    commonName: 'Tomato',
    scientificName: null,
    generation: 1,
    propagationType: 'cutting' as const,
    parentId,
    ownerId: 'usr_a',
    ownerName: 'Ana',
    registeredAt: '2026-11-29T10:00:00.000Z',
    latitude: null,
    longitude: null,
    country: null,
    depth,
  });
  const link = {
    plantId: 'plt_TOP',
    peer: 'b',
    peerUrl: 'https://b.example.org',
    remotePlantId: 'plt_REMOTE',
    commonName: 'Tomato',
    scientificName: null,
    generation: 0,
    blockHash: 'c'.repeat(64),
    bundleDigest: 'd'.repeat(64),
    checkpointSize: 9,
    checkpointRoot: 'e'.repeat(64),
    verifiedAt: '2026-11-29T09:00:00.000Z',
  };

  it('is looked for above the topmost plant, when it has no parent here and one more level is asked for', () => {
    const top = at('plt_TOP', 1, null);
    const self = at('plt_SELF', 0, 'plt_TOP');
    expect(remoteChildOf(self, [top], 2)?.id).toBe('plt_TOP');
    expect(remoteChildOf(self, [top], 1)).toBeNull();
    expect(remoteChildOf(self, [], 0)).toBeNull();
    expect(remoteChildOf(at('plt_ROOT', 0, null), [], 1)?.id).toBe('plt_ROOT');
  });

  it('is verified, fork or unknown by its peer’s state now', () => {
    const states = new Map([
      ['b', 'ok'],
      ['c', 'fork'],
      ['d', 'unreachable'],
    ]);
    expect(remoteState('b', states)).toBe('verified');
    expect(remoteState('d', states)).toBe('verified');
    expect(remoteState('c', states)).toBe('fork');
    expect(remoteState('gone', states)).toBe('unknown');
    expect(remoteState('b', null)).toBe('unknown');
  });

  it('is shown with its node, names and the proof it was accepted on', () => {
    expect(toRemoteRelative(link, at('plt_TOP', 1, null), 'verified')).toEqual({
      childId: 'plt_TOP',
      plantId: 'plt_REMOTE',
      commonName: 'Tomato',
      scientificName: null,
      generation: 0,
      propagationType: 'cutting',
      node: { peer: 'b', url: 'https://b.example.org' },
      verification: {
        state: 'verified',
        checkpoint: { treeSize: 9, rootHash: 'e'.repeat(64) },
        bundleDigest: 'd'.repeat(64),
        blockHash: 'c'.repeat(64),
        verifiedAt: '2026-11-29T09:00:00.000Z',
      },
    });
  });
});
