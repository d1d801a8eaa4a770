import { describe, expect, it } from 'vitest';
import type { Lineage, LineageNode, RemoteRelative } from '../api/lineage';
import { layoutFamily, remoteNodeId } from './layout';

const plant = (id: string, generation: number, parentId: string | null, depth: number): LineageNode => ({
  id,
  commonName: 'Heirloom tomato',
  scientificName: null,
  generation,
  propagationType: parentId || generation > 0 ? 'cutting' : null,
  parentId,
  owner: { id: 'usr_ana', name: 'Ana Grower' },
  seedLot: null,
  depth,
});

const relative = (childId: string, state: RemoteRelative['verification']['state']): RemoteRelative => ({
  childId,
  plantId: 'plt_REMOTE00000000000000001',
  commonName: 'Heirloom tomato',
  scientificName: null,
  generation: 0,
  propagationType: 'cutting',
  node: { peer: 'north-farm', url: 'https://north.example.org' },
  verification: {
    state,
    checkpoint: { treeSize: 12, rootHash: 'a'.repeat(64) },
    bundleDigest: 'b'.repeat(64),
    blockHash: 'c'.repeat(64),
    verifiedAt: '2026-11-29T16:00:00.000Z',
  },
});

const lineageOf = (remoteRelatives: RemoteRelative[]): Lineage => {
  const self = plant('plt_SELF000000000000000001', 1, null, 0);
  return {
    plant: self,
    ancestors: [],
    descendants: [plant('plt_KID0000000000000000001', 2, self.id, 1)],
    remoteRelatives,
    pedigreeDepth: 1000,
    progenyDepth: 3,
    reachedRoot: true,
    truncated: false,
  };
};

describe('the lineage graph with a parent on another node', () => {
  it('draws the remote parent above its child, named with its node and its verification', () => {
    const r = relative('plt_SELF000000000000000001', 'verified');
    const { nodes, edges } = layoutFamily(lineageOf([r]));
    const remote = nodes.find((n) => n.id === remoteNodeId(r))!;
    expect(remote.type).toBe('remote');
    expect(remote.ariaLabel).toBe('Heirloom tomato, on the node north-farm, verified on north-farm');
    const child = nodes.find((n) => n.id === 'plt_SELF000000000000000001')!;
    expect(remote.position.y).toBeLessThan(child.position.y);
    expect(edges).toContainEqual(
      expect.objectContaining({ source: remoteNodeId(r), target: 'plt_SELF000000000000000001', label: 'cutting' }),
    );
  });

  it('says when the other node forked', () => {
    const r = relative('plt_SELF000000000000000001', 'fork');
    const remote = layoutFamily(lineageOf([r])).nodes.find((n) => n.type === 'remote')!;
    expect(remote.ariaLabel).toBe('Heirloom tomato, on the node north-farm, north-farm forked: no longer verified');
  });

  it('leaves out a remote parent of a plant not in the graph, and draws none without one', () => {
    expect(layoutFamily(lineageOf([relative('plt_ELSEWHERE0000000000001', 'verified')])).nodes).toHaveLength(2);
    expect(layoutFamily(lineageOf([])).nodes.map((n) => n.type)).toEqual(['plant', 'plant']);
  });
});
