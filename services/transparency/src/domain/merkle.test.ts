import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  appendLeaf,
  appendLeaves,
  consistencyRanges,
  EMPTY_ROOT,
  type Frontier,
  frontierRoot,
  inclusionRanges,
  leafHash,
  type NodeRef,
  nodeHash,
  nodeKey,
  rangeHash,
  type StoredNode,
} from './merkle.js';

// The RFC 6962 §2.1 definition, written directly: MTH over a list of leaf hashes.
function mth(leaves: string[]): string {
  if (leaves.length === 0) return createHash('sha256').digest('hex');
  if (leaves.length === 1) return leaves[0]!;
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return nodeHash(mth(leaves.slice(0, k)), mth(leaves.slice(k)));
}
function path(m: number, d: string[]): string[] {
  if (d.length <= 1) return [];
  let k = 1;
  while (k * 2 < d.length) k *= 2;
  return m < k ? [...path(m, d.slice(0, k)), mth(d.slice(k))] : [...path(m - k, d.slice(k)), mth(d.slice(0, k))];
}
function subproof(m: number, d: string[], b: boolean): string[] {
  if (m === d.length) return b ? [] : [mth(d)];
  let k = 1;
  while (k * 2 < d.length) k *= 2;
  return m <= k
    ? [...subproof(m, d.slice(0, k), b), mth(d.slice(k))]
    : [...subproof(m - k, d.slice(k), false), mth(d.slice(0, k))];
}

function build(n: number) {
  const leaves = Array.from({ length: n }, (_, i) => leafHash(Buffer.from(`entry ${i}`)));
  let frontier: Frontier = [];
  const nodes = new Map<string, string>();
  for (let i = 0; i < n; i++) {
    const r = appendLeaf(frontier, i, leaves[i]!);
    frontier = r.frontier;
    for (const s of r.nodes as StoredNode[]) nodes.set(nodeKey(s), s.hash);
  }
  const lookup = (ref: NodeRef) => nodes.get(nodeKey(ref)) as string;
  return { leaves, frontier, lookup };
}

describe('RFC 6962 Merkle tree', () => {
  it('hashes leaves with 0x00 and nodes with 0x01 before SHA-256', () => {
    expect(leafHash(Buffer.from(''))).toBe('6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d');
    expect(EMPTY_ROOT).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('keeps the root of every size equal to the definition while appending', () => {
    for (let n = 0; n <= 40; n++) {
      const { leaves, frontier, lookup } = build(n);
      expect(frontierRoot(frontier)).toBe(mth(leaves));
      expect(rangeHash({ lo: 0, hi: n }, lookup)).toBe(mth(leaves));
    }
  });

  it('gives the audit path of every leaf in every size up to 33', () => {
    for (let n = 1; n <= 33; n++) {
      const { leaves, lookup } = build(n);
      for (let m = 0; m < n; m++) {
        expect(inclusionRanges(m, n).map((r) => rangeHash(r, lookup))).toEqual(path(m, leaves));
      }
    }
  });

  it('gives the consistency proof of every pair of sizes up to 33', () => {
    for (let n = 1; n <= 33; n++) {
      const { leaves, lookup } = build(n);
      for (let m = 1; m <= n; m++) {
        expect(consistencyRanges(m, n).map((r) => rangeHash(r, lookup))).toEqual(subproof(m, leaves, true));
      }
    }
  });
});

describe('appendLeaves', () => {
  const leaves = Array.from({ length: 70 }, (_, i) => leafHash(Buffer.from(`entry ${i}`)));

  it('extends a tree by many leaves at once to the same frontier, root and stored subtrees as one at a time', () => {
    // Batches of uneven sizes, starting from trees of every shape on the way.
    for (const cut of [0, 1, 5, 8, 13, 32, 63]) {
      let single: Frontier = [];
      const singleNodes: StoredNode[] = [];
      for (let i = 0; i < leaves.length; i++) {
        const r = appendLeaf(single, i, leaves[i]!);
        single = r.frontier;
        singleNodes.push(...r.nodes);
      }
      let batched: Frontier = [];
      const batchedNodes: StoredNode[] = [];
      for (const [lo, hi] of [
        [0, cut],
        [cut, cut + 7],
        [cut + 7, leaves.length],
      ] as const) {
        const r = appendLeaves(batched, lo, leaves.slice(lo, Math.min(hi, leaves.length)));
        batched = r.frontier;
        batchedNodes.push(...r.nodes);
      }
      expect(batched).toEqual(single);
      expect(batchedNodes).toEqual(singleNodes);
      expect(frontierRoot(batched)).toBe(mth(leaves));
    }
  });

  it('stores every perfect subtree a proof can ask for', () => {
    const { nodes } = appendLeaves([], 0, leaves);
    const stored = new Map(nodes.map((n) => [nodeKey(n), n.hash]));
    // 70 leaves: 35 + 17 + 8 + 4 + 2 + 1 inner perfect subtrees above the 70 leaves.
    expect(stored.size).toBe(70 + 35 + 17 + 8 + 4 + 2 + 1);
    expect(stored.get(nodeKey({ level: 6, idx: 0 }))).toBe(mth(leaves.slice(0, 64)));
  });

  it('leaves the tree as it was when given no leaves', () => {
    const { frontier } = appendLeaves([], 0, leaves.slice(0, 3));
    expect(appendLeaves(frontier, 3, [])).toEqual({ frontier, nodes: [] });
  });
});
