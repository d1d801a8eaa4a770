import { createHash } from 'node:crypto';

/**
 * The RFC 6962 §2.1 Merkle tree of the ledger's blocks and of the audit log: SHA-256, leaf = H(0x00 ‖ data),
 * node = H(0x01 ‖ left ‖ right), a tree of n > 1 leaves split at the largest power of two below n (an odd leaf is
 * never duplicated), the empty tree H(""). Hashes are bytes; the audit log stores them as lowercase hex, hence the
 * `…Hex` functions and the frontier and range helpers, which work on hex.
 */

const HASH_BYTES = 32;

const sha256 = (...parts: Uint8Array[]): Buffer => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
};

/** RFC 6962 leaf hash: SHA-256(0x00 || data). */
export function leafHash(data: Uint8Array): Buffer {
  return sha256(Uint8Array.of(0), data);
}

/** RFC 6962 interior node hash: SHA-256(0x01 || left || right). */
export function nodeHash(left: Uint8Array, right: Uint8Array): Buffer {
  return sha256(Uint8Array.of(1), left, right);
}

/** `leafHash` in lowercase hex. */
export function leafHashHex(data: Uint8Array): string {
  return leafHash(data).toString('hex');
}

/** `nodeHash` of two hex hashes, in lowercase hex. */
export function nodeHashHex(left: string, right: string): string {
  return nodeHash(Buffer.from(left, 'hex'), Buffer.from(right, 'hex')).toString('hex');
}

/** The root of the empty tree, SHA-256 of nothing, in hex. */
export const EMPTY_ROOT_HEX = sha256().toString('hex');

/** Largest power of two strictly below n (n ≥ 2). */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** RFC 6962 Merkle tree hash of the leaves' data; the empty tree hashes to SHA-256 of nothing. */
export function merkleRoot(leaves: readonly Uint8Array[]): Buffer {
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

/** Whether n (a safe integer ≥ 1) is a power of two, without 32-bit bitwise operators. */
function powerOfTwo(n: number): boolean {
  let m = n;
  while (m % 2 === 0) m /= 2;
  return m === 1;
}

/**
 * RFC 9162 §2.1.4.2: true when `proof` shows the tree of `first` leaves (root `firstRoot`) is a prefix of the tree of
 * `second` leaves (root `secondRoot`). Equal sizes need an empty proof and equal roots; from the empty tree, an empty
 * proof. Witnesses check the proofs other logs send with it.
 */
export function verifyConsistency(
  first: number,
  second: number,
  firstRoot: Buffer,
  secondRoot: Buffer,
  proof: readonly Buffer[],
): boolean {
  if (!Number.isSafeInteger(first) || !Number.isSafeInteger(second) || first < 0 || first > second) return false;
  if (firstRoot.length !== HASH_BYTES || secondRoot.length !== HASH_BYTES) return false;
  if (proof.some((p) => p.length !== HASH_BYTES)) return false;
  if (first === second) return proof.length === 0 && firstRoot.equals(secondRoot);
  if (first === 0) return proof.length === 0;
  if (proof.length === 0) return false;
  // A first tree of a power-of-two size is a complete subtree of the second: its root starts the path.
  const path = powerOfTwo(first) ? [firstRoot, ...proof] : [...proof];
  let fn = first - 1;
  let sn = second - 1;
  while (fn % 2 === 1) {
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  let fr = path[0]!;
  let sr = path[0]!;
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && fr.equals(firstRoot) && sr.equals(secondRoot);
}

// A tree kept as stored nodes (the audit log): the perfect subtrees (2^level leaves starting at idx·2^level), in
// hex. Every other subtree hash a proof needs is built from them, so a proof reads O(log² n) stored nodes and never
// the whole log.

/** A perfect subtree: `level` 0 is a leaf, its `idx` is the leaf index; level l covers leaves [idx·2^l, (idx+1)·2^l). */
export interface NodeRef {
  level: number;
  idx: number;
}
export interface StoredNode extends NodeRef {
  hash: string;
}
/** The right edge of the tree: perfect subtrees whose sizes are the binary digits of the tree size, largest first. */
export type Frontier = StoredNode[];

/**
 * Appends a leaf at `index` (= the current size) to the frontier; returns the new frontier and the perfect
 * subtrees completed by it (the leaf itself first), which the caller stores.
 */
export function appendLeaf(
  frontier: Frontier,
  index: number,
  hash: string,
): { frontier: Frontier; nodes: StoredNode[] } {
  const next = [...frontier];
  let cur: StoredNode = { level: 0, idx: index, hash };
  const nodes: StoredNode[] = [cur];
  while (next.length > 0 && next[next.length - 1]!.level === cur.level) {
    const left = next.pop()!;
    cur = { level: cur.level + 1, idx: Math.floor(left.idx / 2), hash: nodeHashHex(left.hash, cur.hash) };
    nodes.push(cur);
  }
  next.push(cur);
  return { frontier: next, nodes };
}

/**
 * Appends leaves at `index`, `index + 1`, … (index = the current size) to the frontier in one go: the new frontier
 * and every perfect subtree the leaves complete, in the order they are completed, which the caller stores.
 */
export function appendLeaves(
  frontier: Frontier,
  index: number,
  hashes: readonly string[],
): { frontier: Frontier; nodes: StoredNode[] } {
  let edge = frontier;
  const nodes: StoredNode[] = [];
  for (let i = 0; i < hashes.length; i++) {
    const next = appendLeaf(edge, index + i, hashes[i]!);
    edge = next.frontier;
    for (const n of next.nodes) nodes.push(n);
  }
  return { frontier: edge, nodes };
}

/** The root of the tree whose right edge is the frontier, in hex. */
export function frontierRoot(frontier: Frontier): string {
  if (frontier.length === 0) return EMPTY_ROOT_HEX;
  let root = frontier[frontier.length - 1]!.hash;
  for (let i = frontier.length - 2; i >= 0; i--) root = nodeHashHex(frontier[i]!.hash, root);
  return root;
}

/** A leaf range [lo, hi) whose Merkle hash a proof needs. */
export interface LeafRange {
  lo: number;
  hi: number;
}

/** RFC 6962 §2.1.1 PATH(m, D[lo:hi]) as the ranges of its hashes, nearest the leaf first. */
export function inclusionRanges(m: number, size: number): LeafRange[] {
  const out: LeafRange[] = [];
  const path = (idx: number, lo: number, hi: number) => {
    if (hi - lo <= 1) return;
    const k = splitPoint(hi - lo);
    if (idx < lo + k) {
      path(idx, lo, lo + k);
      out.push({ lo: lo + k, hi });
    } else {
      path(idx, lo + k, hi);
      out.push({ lo, hi: lo + k });
    }
  };
  path(m, 0, size);
  return out;
}

/** RFC 6962 §2.1.2 PROOF(m, D[n]) as the ranges of its hashes (0 < m ≤ n). */
export function consistencyRanges(m: number, n: number): LeafRange[] {
  const out: LeafRange[] = [];
  const sub = (lo: number, hi: number, b: boolean) => {
    const size = hi - lo;
    const mm = m - lo;
    if (mm === size) {
      if (!b) out.push({ lo, hi });
      return;
    }
    const k = splitPoint(size);
    if (mm <= k) {
      sub(lo, lo + k, b);
      out.push({ lo: lo + k, hi });
    } else {
      sub(lo + k, hi, false);
      out.push({ lo, hi: lo + k });
    }
  };
  if (m < n) sub(0, n, true);
  return out;
}

/** The perfect subtrees whose hashes make up the range [lo, hi), in the order `rangeHash` combines them. */
export function rangeNodes(r: LeafRange): NodeRef[] {
  const size = r.hi - r.lo;
  let level = 0;
  while (2 ** (level + 1) <= size) level++;
  if (2 ** level === size && r.lo % size === 0) return [{ level, idx: r.lo / size }];
  const k = splitPoint(size);
  return [...rangeNodes({ lo: r.lo, hi: r.lo + k }), ...rangeNodes({ lo: r.lo + k, hi: r.hi })];
}

/** The Merkle hash of [lo, hi) in hex, from its perfect subtrees (`node` looks one up). */
export function rangeHash(r: LeafRange, node: (ref: NodeRef) => string): string {
  const size = r.hi - r.lo;
  if (size === 0) return EMPTY_ROOT_HEX;
  let level = 0;
  while (2 ** (level + 1) <= size) level++;
  if (2 ** level === size && r.lo % size === 0) return node({ level, idx: r.lo / size });
  const k = splitPoint(size);
  return nodeHashHex(rangeHash({ lo: r.lo, hi: r.lo + k }, node), rangeHash({ lo: r.lo + k, hi: r.hi }, node));
}

/** A key for maps of node refs. */
export function nodeKey(ref: NodeRef): string {
  return `${ref.level}:${ref.idx}`;
}
