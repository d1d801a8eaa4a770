import { createHash } from 'node:crypto';

// The services' Merkle tree is @rootline/domain's; this copy stays, written from RFC 9162, because the verifier is
// published for auditors to run on its own and must not share the code it checks (ADR 123, ADR 168):
// merkle.test.ts proves both give the same results.

/** SHA-256 of the parts, concatenated. */
export function sha256(...parts: Uint8Array[]): Buffer {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
}

/** RFC 6962 §2.1 leaf hash: SHA-256(0x00 ‖ data). */
export function leafHash(data: Uint8Array): Buffer {
  return sha256(Uint8Array.of(0), data);
}

/** RFC 6962 §2.1 interior node: SHA-256(0x01 ‖ left ‖ right). */
export function nodeHash(left: Uint8Array, right: Uint8Array): Buffer {
  return sha256(Uint8Array.of(1), left, right);
}

/** The Merkle tree hash of the leaf hashes given (RFC 6962 §2.1). */
export function rootOf(leaves: readonly Buffer[]): Buffer {
  if (leaves.length === 0) return sha256();
  if (leaves.length === 1) return leaves[0] as Buffer;
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return nodeHash(rootOf(leaves.slice(0, k)), rootOf(leaves.slice(k)));
}

/** RFC 9162 §2.1.3.2: whether `path` proves leaf `index` of a tree of `size` leaves under `root`. */
export function verifyInclusion(index: number, size: number, leaf: Buffer, path: readonly Buffer[], root: Buffer) {
  if (index >= size) return false;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of path) {
    if (sn === 0) return false;
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
  return sn === 0 && r.equals(root);
}

/** RFC 9162 §2.1.4.2: whether `proof` shows the tree of `first` leaves (root `firstRoot`) is a prefix of `second`'s. */
export function verifyConsistency(
  first: number,
  second: number,
  firstRoot: Buffer,
  secondRoot: Buffer,
  proof: readonly Buffer[],
): boolean {
  if (first > second) return false;
  if (first === second) return proof.length === 0 && firstRoot.equals(secondRoot);
  if (first === 0) return proof.length === 0;
  if (proof.length === 0) return false;
  const path = [...proof];
  if ((first & (first - 1)) === 0) path.unshift(firstRoot);
  let fn = first - 1;
  let sn = second - 1;
  while (fn % 2 === 1) {
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  let fr = path[0] as Buffer;
  let sr = path[0] as Buffer;
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && fr.equals(firstRoot) && sr.equals(secondRoot);
}

/** Hex (any case) to bytes, refusing anything that is not 32 bytes. */
export function hash32(hex: string, what: string): Buffer {
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new Error(`${what} is not a SHA-256 hash`);
  return Buffer.from(hex, 'hex');
}
