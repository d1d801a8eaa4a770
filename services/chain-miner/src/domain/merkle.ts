import { createHash } from 'node:crypto';

const LEAF = Buffer.from([0x00]);
const NODE = Buffer.from([0x01]);
const HASH_BYTES = 32;

const sha256 = (...parts: Buffer[]) => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
};

/** RFC 6962 leaf hash: SHA-256(0x00 || data). */
export function leafHash(data: Buffer): Buffer {
  return sha256(LEAF, data);
}

/** RFC 6962 interior node hash: SHA-256(0x01 || left || right). */
export function nodeHash(left: Buffer, right: Buffer): Buffer {
  return sha256(NODE, left, right);
}

/** Largest power of two strictly less than n (n ≥ 2). */
function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** RFC 6962 Merkle tree hash of the leaves' data; the empty tree hashes to SHA-256 of nothing. */
export function merkleRoot(leaves: readonly Buffer[]): Buffer {
  return rootOfHashes(leaves.map(leafHash));
}

/** Merkle tree hash over leaf hashes that are already computed. */
export function rootOfHashes(hashes: readonly Buffer[]): Buffer {
  if (hashes.length === 0) return sha256();
  if (hashes.length === 1) return hashes[0]!;
  const k = splitPoint(hashes.length);
  return nodeHash(rootOfHashes(hashes.slice(0, k)), rootOfHashes(hashes.slice(k)));
}

/**
 * RFC 6962 §2.1.1 audit path PATH(m, D[n]) of leaf `index` among the leaf hashes: the sibling hashes from the
 * leaf up to the root.
 */
export function inclusionProof(leafHashes: readonly Buffer[], index: number): Buffer[] {
  if (!Number.isInteger(index) || index < 0 || index >= leafHashes.length) {
    throw new RangeError(`leaf index ${index} is outside a tree of ${leafHashes.length}`);
  }
  if (leafHashes.length === 1) return [];
  const k = splitPoint(leafHashes.length);
  return index < k
    ? [...inclusionProof(leafHashes.slice(0, k), index), rootOfHashes(leafHashes.slice(k))]
    : [...inclusionProof(leafHashes.slice(k), index - k), rootOfHashes(leafHashes.slice(0, k))];
}

/**
 * The root an inclusion proof leads to (RFC 9162 §2.1.3.2), or undefined when the proof cannot belong to a leaf
 * at `index` in a tree of `size` (wrong length, wrong index, a hash of the wrong size).
 */
export function rootFromInclusionProof(
  index: number,
  size: number,
  leaf: Buffer,
  proof: readonly Buffer[],
): Buffer | undefined {
  if (!Number.isInteger(index) || !Number.isInteger(size) || index < 0 || index >= size) return undefined;
  if (leaf.length !== HASH_BYTES) return undefined;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of proof) {
    if (p.length !== HASH_BYTES || sn === 0) return undefined;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 ? r : undefined;
}

/** True when `proof` shows the leaf hash at `index` in a tree of `size` leaves with this root. */
export function verifyInclusion(
  index: number,
  size: number,
  leaf: Buffer,
  proof: readonly Buffer[],
  root: Buffer,
): boolean {
  const computed = rootFromInclusionProof(index, size, leaf, proof);
  return computed !== undefined && root.length === HASH_BYTES && computed.equals(root);
}
