import { randomBytes } from 'node:crypto';
import * as shared from '@rootline/domain';
import { describe, expect, it } from 'vitest';
import { leafHash, nodeHash, rootOf, verifyConsistency, verifyInclusion } from './merkle.js';

// The verifier keeps its own Merkle code (ADR 123); these tests hold it to the services' tree, byte for byte.

const leavesOf = (n: number) => Array.from({ length: n }, () => randomBytes(1 + Math.floor(Math.random() * 40)));

/** The services' consistency proof PROOF(m, D[n]), from their stored-subtree ranges. */
function consistencyProof(hashes: readonly Buffer[], m: number): Buffer[] {
  return shared.consistencyRanges(m, hashes.length).map((r) => shared.rootOfHashes(hashes.slice(r.lo, r.hi)));
}

describe('the verifier and the services build the same tree', () => {
  it('hashes leaves and nodes alike', () => {
    for (const data of [Buffer.alloc(0), Buffer.from('entry'), randomBytes(200)]) {
      expect(leafHash(data)).toEqual(shared.leafHash(data));
    }
    const [a, b] = [randomBytes(32), randomBytes(32)];
    expect(nodeHash(a, b)).toEqual(shared.nodeHash(a, b));
  });

  it('gives the same root for every size up to 70', () => {
    for (let n = 0; n <= 70; n++) {
      const leaves = leavesOf(n);
      const hashes = leaves.map(leafHash);
      const root = rootOf(hashes);
      expect(root).toEqual(shared.merkleRoot(leaves));
      expect(root.toString('hex')).toBe(
        shared.frontierRoot(
          shared.appendLeaves(
            [],
            0,
            hashes.map((h) => h.toString('hex')),
          ).frontier,
        ),
      );
    }
  });

  it('accepts every inclusion proof the services make, and agrees with them on corrupted ones', () => {
    for (let size = 1; size <= 33; size++) {
      const hashes = leavesOf(size).map(leafHash);
      const root = shared.rootOfHashes(hashes);
      for (let index = 0; index < size; index++) {
        const proof = shared.inclusionProof(hashes, index);
        expect(verifyInclusion(index, size, hashes[index]!, proof, root), `leaf ${index} of ${size}`).toBe(true);
        const flipped = proof.map((p, i) => (i === 0 ? Buffer.from(p.map((x, j) => (j === 0 ? x ^ 1 : x))) : p));
        for (const [i, s, path] of [
          [index, size, flipped],
          [index + 1, size, proof],
          [index, size + 1, proof],
          [index, size, proof.slice(1)],
        ] as const) {
          expect(verifyInclusion(i, s, hashes[index]!, path, root), `variant of leaf ${index} of ${size}`).toBe(
            shared.verifyInclusion(i, s, hashes[index]!, path, root),
          );
        }
      }
    }
  });

  it('accepts every consistency proof the services make between sizes up to 33', () => {
    for (let n = 1; n <= 33; n++) {
      const hashes = leavesOf(n).map(leafHash);
      const second = shared.rootOfHashes(hashes);
      for (let m = 1; m <= n; m++) {
        const first = shared.rootOfHashes(hashes.slice(0, m));
        const proof = consistencyProof(hashes, m);
        expect(verifyConsistency(m, n, first, second, proof), `${m} → ${n}`).toBe(true);
        if (m < n) expect(verifyConsistency(m, n, second, second, proof), `${m} → ${n}, wrong root`).toBe(false);
      }
    }
  });
});
