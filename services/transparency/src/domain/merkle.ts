import { createHash } from 'node:crypto';

/**
 * RFC 6962 §2.1 Merkle tree over the audit log. Leaves and nodes are SHA-256 hashes in lowercase hex:
 * leaf = SHA-256(0x00 ‖ entry bytes), node = SHA-256(0x01 ‖ left ‖ right), empty tree = SHA-256("").
 * Stored nodes are the perfect subtrees (2^level leaves starting at idx·2^level); every other subtree hash a proof
 * needs is built from them, so a proof reads O(log² n) stored nodes and never the whole log.
 */

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

export const EMPTY_ROOT = createHash('sha256').digest('hex');

export function leafHash(entry: Uint8Array): string {
  return createHash('sha256').update(Uint8Array.of(0)).update(entry).digest('hex');
}

export function nodeHash(left: string, right: string): string {
  return createHash('sha256')
    .update(Uint8Array.of(1))
    .update(Buffer.from(left, 'hex'))
    .update(Buffer.from(right, 'hex'))
    .digest('hex');
}

/** Largest power of two strictly below n (n ≥ 2). */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

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
    cur = { level: cur.level + 1, idx: Math.floor(left.idx / 2), hash: nodeHash(left.hash, cur.hash) };
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

/** The root of the tree whose right edge is the frontier. */
export function frontierRoot(frontier: Frontier): string {
  if (frontier.length === 0) return EMPTY_ROOT;
  let root = frontier[frontier.length - 1]!.hash;
  for (let i = frontier.length - 2; i >= 0; i--) root = nodeHash(frontier[i]!.hash, root);
  return root;
}

/** A leaf range [lo, hi) whose Merkle hash a proof needs. */
export interface Range {
  lo: number;
  hi: number;
}

/** RFC 6962 §2.1.1 PATH(m, D[lo:hi]) as the ranges of its hashes, nearest the leaf first. */
export function inclusionRanges(m: number, size: number): Range[] {
  const out: Range[] = [];
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
export function consistencyRanges(m: number, n: number): Range[] {
  const out: Range[] = [];
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
export function rangeNodes(r: Range): NodeRef[] {
  const size = r.hi - r.lo;
  let level = 0;
  while (2 ** (level + 1) <= size) level++;
  if (2 ** level === size && r.lo % size === 0) return [{ level, idx: r.lo / size }];
  const k = splitPoint(size);
  return [...rangeNodes({ lo: r.lo, hi: r.lo + k }), ...rangeNodes({ lo: r.lo + k, hi: r.hi })];
}

/** The Merkle hash of [lo, hi) from its perfect subtrees (`node` looks one up). */
export function rangeHash(r: Range, node: (ref: NodeRef) => string): string {
  const size = r.hi - r.lo;
  if (size === 0) return EMPTY_ROOT;
  let level = 0;
  while (2 ** (level + 1) <= size) level++;
  if (2 ** level === size && r.lo % size === 0) return node({ level, idx: r.lo / size });
  const k = splitPoint(size);
  return nodeHash(rangeHash({ lo: r.lo, hi: r.lo + k }, node), rangeHash({ lo: r.lo + k, hi: r.hi }, node));
}

/** A key for maps of node refs. */
export function nodeKey(ref: NodeRef): string {
  return `${ref.level}:${ref.idx}`;
}
