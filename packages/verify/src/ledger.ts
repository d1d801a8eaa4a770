import { hash32, leafHash, sha256, verifyInclusion } from './merkle.js';

/** A ledger block header, as the API and certificates give it. */
export interface BlockHeader {
  index: number;
  hash: string;
  timestamp: string;
  previousHash: string;
  merkleRoot: string;
  difficulty: number;
  nonce: number;
}

/** SHA-256 (hex) of `index|timestamp|previousHash|merkleRoot|difficulty|nonce` (docs/ledger.md). */
export function headerHash(b: BlockHeader): string {
  return sha256(
    Buffer.from(`${b.index}|${b.timestamp}|${b.previousHash}|${b.merkleRoot}|${b.difficulty}|${b.nonce}`),
  ).toString('hex');
}

/** Leading zero bits of a hex hash. */
export function leadingZeroBits(hex: string): number {
  let bits = 0;
  for (const c of hex) {
    const v = Number.parseInt(c, 16);
    if (v === 0) {
      bits += 4;
      continue;
    }
    return bits + (Math.clz32(v) - 28);
  }
  return bits;
}

/** Problems of one header: its hash is not the hash of its fields, or lacks the work its difficulty asks. */
export function headerProblems(b: BlockHeader): string[] {
  const problems: string[] = [];
  if (headerHash(b) !== b.hash) problems.push(`block ${b.index}: hash is not the SHA-256 of its header`);
  if (leadingZeroBits(b.hash) < b.difficulty) {
    problems.push(`block ${b.index}: proof of work does not meet difficulty ${b.difficulty}`);
  }
  return problems;
}

/** Problems of the link from `previous` to `block`: hash, height and difficulty that never decreases. */
export function linkProblems(previous: BlockHeader, block: BlockHeader): string[] {
  const problems: string[] = [];
  if (block.previousHash !== previous.hash) problems.push(`block ${block.index} does not name block ${previous.index}`);
  if (block.index !== previous.index + 1) problems.push(`block ${block.index} does not follow ${previous.index}`);
  if (block.difficulty < previous.difficulty) problems.push(`block ${block.index}: difficulty decreased`);
  return problems;
}

/** A transaction's inclusion in its block: the leaf data, its place and the audit path. */
export interface TxProof {
  payload: string;
  leaf: string;
  leafIndex: number;
  treeSize: number;
  auditPath: string[];
}

/** Problems of a transaction proof: its payload hash, and its path to the block's Merkle root. */
export function txProblems(p: TxProof, merkleRoot: string): string[] {
  const problems: string[] = [];
  const parts = p.leaf.split('|');
  if (parts.length !== 4) return ['transaction leaf is not id|type|payloadHash|timestamp'];
  if (sha256(Buffer.from(p.payload, 'utf8')).toString('hex') !== parts[2]) {
    problems.push('transaction payload does not hash to the payload hash in its leaf');
  }
  const path = p.auditPath.map((h) => hash32(h, 'ledger audit path hash'));
  if (
    !verifyInclusion(p.leafIndex, p.treeSize, leafHash(Buffer.from(p.leaf, 'utf8')), path, hash32(merkleRoot, 'root'))
  ) {
    problems.push('transaction is not in the block: its Merkle path does not lead to the block’s root');
  }
  return problems;
}
