import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  appendLeaf,
  appendLeaves,
  consistencyRanges,
  EMPTY_ROOT_HEX,
  type Frontier,
  frontierRoot,
  inclusionProof,
  inclusionRanges,
  leafHash,
  leafHashHex,
  merkleRoot,
  type NodeRef,
  nodeHashHex,
  nodeKey,
  rangeHash,
  rootFromInclusionProof,
  rootOfHashes,
  type StoredNode,
  verifyConsistency,
  verifyInclusion,
} from './merkle.js';

// RFC 6962 reference inputs and roots (the certificate-transparency test vectors).
const LEAVES = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'].map(
  (h) => Buffer.from(h, 'hex'),
);

const ROOTS = [
  'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
];

describe('merkleRoot (RFC 6962)', () => {
  for (let n = 0; n <= 8; n++) {
    it(`matches the reference root of the first ${n} leaves`, () => {
      expect(merkleRoot(LEAVES.slice(0, n)).toString('hex')).toBe(ROOTS[n]);
    });
  }

  it('changes when a leaf changes', () => {
    const altered = [...LEAVES];
    altered[3] = Buffer.from('2022', 'hex');
    expect(merkleRoot(altered).toString('hex')).not.toBe(ROOTS[8]);
  });
});

// Inclusion proofs of the same tree, as published with transparency-dev/merkle (proof/verify_test.go):
// leaf index (0-based here), tree size and audit path.
const PROOFS: { index: number; size: number; path: string[] }[] = [
  {
    index: 0,
    size: 8,
    path: [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  },
  {
    index: 5,
    size: 8,
    path: [
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  },
  { index: 2, size: 3, path: ['fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125'] },
  {
    index: 1,
    size: 5,
    path: [
      '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  },
];

const SOME_HASH = Buffer.from('abacaba000000000000000000000000000000000000000000060061e00123456', 'hex');
const EMPTY_ROOT = Buffer.from(ROOTS[0]!, 'hex');
const hex = (b: Buffer[]) => b.map((x) => x.toString('hex'));

/** The corruptions transparency-dev/merkle probes every good proof with; each must fail to verify. */
function corruptions(index: number, size: number, leaf: Buffer, path: Buffer[], root: Buffer) {
  const flipped = path.map((_, i) => {
    const copy = path.map((p) => Buffer.from(p));
    copy[i]![0]! ^= 8;
    return { name: `flipped bit in path[${i}]`, index, size, leaf, path: copy, root };
  });
  return [
    { name: 'index - 1', index: index - 1, size, leaf, path, root },
    { name: 'index + 1', index: index + 1, size, leaf, path, root },
    { name: 'index ^ 2', index: index ^ 2, size, leaf, path, root },
    { name: 'size * 2', index, size: size * 2, leaf, path, root },
    { name: 'size / 2', index, size: Math.floor(size / 2), leaf, path, root },
    { name: 'wrong leaf', index, size, leaf: leafHash(Buffer.from('WrongLeaf')), path, root },
    { name: 'leaf data instead of its hash', index, size, leaf: Buffer.from('WrongLeaf'), path, root },
    { name: 'empty root', index, size, leaf, path, root: EMPTY_ROOT },
    { name: 'random root', index, size, leaf, path, root: SOME_HASH },
    { name: 'trailing garbage', index, size, leaf, path: [...path, Buffer.alloc(0)], root },
    { name: 'extended by the root', index, size, leaf, path: [...path, root], root },
    { name: 'preceding garbage', index, size, leaf, path: [Buffer.alloc(0), ...path], root },
    { name: 'preceded by the root', index, size, leaf, path: [root, ...path], root },
    ...(path.length > 0 ? [{ name: 'truncated', index, size, leaf, path: path.slice(0, -1), root }] : []),
    ...(path.length > 1
      ? [{ name: 'inserted component', index, size, leaf, path: [path[0]!, SOME_HASH, ...path.slice(1)], root }]
      : []),
    ...flipped,
  ];
}

describe('inclusion proofs (RFC 6962 / RFC 9162)', () => {
  const leafHashes = LEAVES.map(leafHash);

  for (const p of PROOFS) {
    it(`builds and verifies the published path of leaf ${p.index} in a tree of ${p.size}`, () => {
      const tree = leafHashes.slice(0, p.size);
      expect(hex(inclusionProof(tree, p.index))).toEqual(p.path);
      const path = p.path.map((h) => Buffer.from(h, 'hex'));
      const root = Buffer.from(ROOTS[p.size]!, 'hex');
      expect(rootFromInclusionProof(p.index, p.size, leafHashes[p.index]!, path)?.toString('hex')).toBe(ROOTS[p.size]);
      expect(verifyInclusion(p.index, p.size, leafHashes[p.index]!, path, root)).toBe(true);
    });

    it(`rejects every corruption of the path of leaf ${p.index} in a tree of ${p.size}`, () => {
      const path = p.path.map((h) => Buffer.from(h, 'hex'));
      const root = Buffer.from(ROOTS[p.size]!, 'hex');
      const accepted = corruptions(p.index, p.size, leafHashes[p.index]!, path, root)
        .filter((c) => verifyInclusion(c.index, c.size, c.leaf, c.path, c.root))
        .map((c) => c.name);
      expect(accepted).toEqual([]);
    });
  }

  it('proves every leaf of every tree up to 8 leaves, and nothing else', () => {
    for (let size = 1; size <= 8; size++) {
      const tree = leafHashes.slice(0, size);
      const root = rootOfHashes(tree);
      expect(root.toString('hex')).toBe(ROOTS[size]);
      for (let index = 0; index < size; index++) {
        const path = inclusionProof(tree, index);
        expect(verifyInclusion(index, size, tree[index]!, path, root), `leaf ${index} of ${size}`).toBe(true);
        const accepted = corruptions(index, size, tree[index]!, path, root)
          .filter((c) => verifyInclusion(c.index, c.size, c.leaf, c.path, c.root))
          .map((c) => c.name);
        expect(accepted, `leaf ${index} of ${size}`).toEqual([]);
      }
    }
  });

  it('verifies the single-leaf tree with an empty path only', () => {
    const leaf = leafHash(Buffer.from('data'));
    expect(verifyInclusion(0, 1, leaf, [], leaf)).toBe(true);
    expect(verifyInclusion(0, 1, leaf, [], Buffer.alloc(0))).toBe(false);
    expect(verifyInclusion(0, 1, Buffer.alloc(0), [], leaf)).toBe(false);
    expect(verifyInclusion(0, 1, leaf, [leaf], leaf)).toBe(false);
  });

  it('refuses impossible positions', () => {
    for (const [index, size] of [
      [0, 0],
      [1, 0],
      [2, 1],
      [-1, 4],
    ] as const) {
      expect(verifyInclusion(index, size, SOME_HASH, [], EMPTY_ROOT)).toBe(false);
    }
    expect(() => inclusionProof(leafHashes, 8)).toThrow(RangeError);
  });
});

// The RFC 6962 §2.1 definition, written directly: MTH over a list of leaf hashes.
function mth(leaves: string[]): string {
  if (leaves.length === 0) return createHash('sha256').digest('hex');
  if (leaves.length === 1) return leaves[0]!;
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return nodeHashHex(mth(leaves.slice(0, k)), mth(leaves.slice(k)));
}
function auditPath(m: number, d: string[]): string[] {
  if (d.length <= 1) return [];
  let k = 1;
  while (k * 2 < d.length) k *= 2;
  return m < k
    ? [...auditPath(m, d.slice(0, k)), mth(d.slice(k))]
    : [...auditPath(m - k, d.slice(k)), mth(d.slice(0, k))];
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
  const leaves = Array.from({ length: n }, (_, i) => leafHashHex(Buffer.from(`entry ${i}`)));
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

describe('RFC 6962 Merkle tree kept as stored subtrees (hex)', () => {
  it('hashes leaves with 0x00 and nodes with 0x01 before SHA-256', () => {
    expect(leafHashHex(Buffer.from(''))).toBe('6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d');
    expect(EMPTY_ROOT_HEX).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('is the same tree as the byte form: the reference roots, and the roots of other leaves', () => {
    for (let n = 0; n <= 8; n++) {
      const { frontier } = appendLeaves([], 0, LEAVES.slice(0, n).map(leafHashHex));
      expect(frontierRoot(frontier)).toBe(ROOTS[n]);
    }
    for (let n = 0; n <= 40; n++) {
      const data = Array.from({ length: n }, (_, i) => Buffer.from(`entry ${i}`));
      expect(frontierRoot(build(n).frontier)).toBe(merkleRoot(data).toString('hex'));
    }
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
        expect(inclusionRanges(m, n).map((r) => rangeHash(r, lookup))).toEqual(auditPath(m, leaves));
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
  const leaves = Array.from({ length: 70 }, (_, i) => leafHashHex(Buffer.from(`entry ${i}`)));

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

describe('verifyConsistency (RFC 9162 §2.1.4.2)', () => {
  // RFC 6962 §2.1.2 SUBPROOF, written from the text, over the reference leaves.
  const mth = (ls: Buffer[]) => merkleRoot(ls);
  function subproof(m: number, ls: Buffer[], whole: boolean): Buffer[] {
    const n = ls.length;
    if (m === n) return whole ? [] : [mth(ls)];
    let k = 1;
    while (k * 2 < n) k *= 2;
    if (m <= k) return [...subproof(m, ls.slice(0, k), whole), mth(ls.slice(k))];
    return [...subproof(m - k, ls.slice(k), false), mth(ls.slice(0, k))];
  }

  it('accepts every proof between sizes of the reference tree and refuses a changed one', () => {
    for (let n = 1; n <= LEAVES.length; n++) {
      for (let m = 1; m <= n; m++) {
        const proof = m === n ? [] : subproof(m, LEAVES.slice(0, n), true);
        const a = mth(LEAVES.slice(0, m));
        const b = mth(LEAVES.slice(0, n));
        expect(verifyConsistency(m, n, a, b, proof)).toBe(true);
        if (proof.length > 0) {
          const bad = proof.map((p, i) => (i === proof.length - 1 ? leafHash(p) : p));
          expect(verifyConsistency(m, n, a, b, bad)).toBe(false);
          expect(verifyConsistency(m, n, a, b, proof.slice(0, -1))).toBe(false);
          expect(verifyConsistency(m, n, leafHash(a), b, proof)).toBe(false);
        }
      }
    }
  });

  it('holds the edge cases: empty first tree, equal sizes, a first tree larger than the second', () => {
    const root = mth(LEAVES.slice(0, 3));
    const empty = Buffer.from(EMPTY_ROOT_HEX, 'hex');
    expect(verifyConsistency(0, 3, empty, root, [])).toBe(true);
    expect(verifyConsistency(0, 3, empty, root, [root])).toBe(false);
    expect(verifyConsistency(3, 3, root, root, [])).toBe(true);
    expect(verifyConsistency(3, 3, root, leafHash(root), [])).toBe(false);
    expect(verifyConsistency(4, 3, root, root, [])).toBe(false);
  });
});
