import { createHash } from 'node:crypto';

// An outsider's verifier of the ledger, written from docs/ledger.md alone and sharing no code with the
// chain-miner, so tests that use it check the documented bytes, not the implementation against itself.

/** SHA-256 of the parts, concatenated. */
export function sha256(...parts: (string | Buffer)[]): Buffer {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
}

/** A block's hash (hex) from its header fields, as docs/ledger.md specifies the bytes. */
export function blockHeaderHash(b: {
  index: number;
  timestamp: string;
  previousHash: string;
  merkleRoot: string;
  difficulty: number;
  nonce: number;
}): string {
  return sha256(`${b.index}|${b.timestamp}|${b.previousHash}|${b.merkleRoot}|${b.difficulty}|${b.nonce}`).toString(
    'hex',
  );
}

/** RFC 6962 leaf hash of a leaf's documented bytes. */
export function leafHashOf(leaf: string): Buffer {
  return sha256(Buffer.from([0]), Buffer.from(leaf, 'utf8'));
}

/** RFC 9162 §2.1.3.2: the root (hex) an inclusion proof leads to, or undefined when the path does not fit. */
export function rootFromProof(index: number, size: number, leafHash: Buffer, path: Buffer[]): string | undefined {
  let fn = index;
  let sn = size - 1;
  let r = leafHash;
  for (const p of path) {
    if (sn === 0) return undefined;
    if (fn % 2 === 1 || fn === sn) {
      r = sha256(Buffer.from([1]), p, r);
      while (fn % 2 === 0 && fn !== 0) {
        fn >>= 1;
        sn >>= 1;
      }
    } else {
      r = sha256(Buffer.from([1]), r, p);
    }
    fn >>= 1;
    sn >>= 1;
  }
  return sn === 0 ? r.toString('hex') : undefined;
}
