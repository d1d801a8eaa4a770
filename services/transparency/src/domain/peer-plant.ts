import { createHash } from 'node:crypto';
import type { ProofBundle } from '@rootline/contracts/transparency-public';

type LedgerBlockHeader = ProofBundle['block'];

import { leafHash, verifyInclusion } from '@rootline/domain';
import canonicalize from 'canonicalize';

const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** SHA-256 (hex) of a block header's `index|timestamp|previousHash|merkleRoot|difficulty|nonce` (docs/ledger.md). */
export function blockHeaderHash(b: LedgerBlockHeader): string {
  return sha256Hex(`${b.index}|${b.timestamp}|${b.previousHash}|${b.merkleRoot}|${b.difficulty}|${b.nonce}`);
}

/** Leading zero bits of a hex hash. */
export function leadingZeroBits(hex: string): number {
  let bits = 0;
  for (const c of hex) {
    const v = Number.parseInt(c, 16);
    if (v !== 0) return bits + (Math.clz32(v) - 28);
    bits += 4;
  }
  return bits;
}

function headerProblems(b: LedgerBlockHeader): string[] {
  const problems: string[] = [];
  if (blockHeaderHash(b) !== b.hash) problems.push(`block ${b.index}: its hash is not the SHA-256 of its header`);
  if (leadingZeroBits(b.hash) < b.difficulty) {
    problems.push(`block ${b.index}: its proof of work does not meet difficulty ${b.difficulty}`);
  }
  return problems;
}

/**
 * The ledger half of a proof bundle, checked as `rootline-verify bundle` checks it: the transaction's payload hash
 * and leaf, its Merkle path to the block's root, the block's hash and proof of work, and its link to the block
 * before (or that it is the genesis block); for a plant, that the transaction names it. Answers the problems found
 * (none: it verifies).
 */
export function ledgerProblems(b: ProofBundle): string[] {
  const problems: string[] = [];
  const t = b.transaction;
  if (sha256Hex(t.payload) !== t.payloadHash) problems.push('the transaction’s payload does not hash to its hash');
  const leaf = `${t.id}|${t.type}|${t.payloadHash}|${t.timestamp}`;
  if (b.ledgerProof.leaf !== leaf || b.ledgerProof.leafIndex !== t.position) {
    problems.push('the transaction’s leaf is not its id, type, payload hash and time');
  }
  const path = b.ledgerProof.auditPath.map((h) => Buffer.from(h, 'hex'));
  if (
    !verifyInclusion(
      b.ledgerProof.leafIndex,
      b.ledgerProof.treeSize,
      leafHash(Buffer.from(b.ledgerProof.leaf, 'utf8')),
      path,
      Buffer.from(b.block.merkleRoot, 'hex'),
    )
  ) {
    problems.push('the transaction is not in the block: its path does not lead to the block’s root');
  }
  if (b.plantId && !t.payload.includes(`"${b.plantId}"`)) problems.push('the transaction does not name the plant');
  const entity = b.auditEntry?.entity;
  if (entity && !t.payload.includes(`"${entity}"`)) {
    problems.push('the audit entry is not of the transaction: the transaction does not name its record');
  }
  problems.push(...headerProblems(b.block));
  if (b.previousBlock) {
    problems.push(...headerProblems(b.previousBlock));
    const p = b.previousBlock;
    if (b.block.previousHash !== p.hash || b.block.index !== p.index + 1) {
      problems.push(`block ${b.block.index} does not follow block ${p.index}`);
    }
    if (b.block.difficulty < p.difficulty) problems.push(`block ${b.block.index}: its difficulty decreased`);
  } else if (b.block.index !== 0 || !/^0{64}$/u.test(b.block.previousHash)) {
    problems.push('the block names no block before it and is not the genesis block');
  }
  return problems;
}

/** SHA-256 (hex) of a bundle as canonical JSON (RFC 8785): what a node that accepted it stores as its digest. */
export function bundleDigest(b: ProofBundle): string {
  return sha256Hex(canonicalize(b) as string);
}

/** What a plant's registration (or propagation) transaction says of the plant, read from its payload. */
export interface PlantFacts {
  commonName: string | null;
  scientificName: string | null;
  generation: number | null;
}

/** The plant's names and generation from its ledger transaction's payload (null where it names none). */
export function plantFacts(b: ProofBundle): PlantFacts {
  let payload: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(b.transaction.payload);
    if (parsed && typeof parsed === 'object') payload = parsed as Record<string, unknown>;
  } catch {
    // A payload that is not JSON names nothing.
  }
  const text = (v: unknown) => (typeof v === 'string' && v.length > 0 && v.length <= 200 ? v : null);
  const g = payload.generation;
  return {
    commonName: text(payload.commonName),
    scientificName: text(payload.scientificName),
    generation: typeof g === 'number' && Number.isInteger(g) && g >= 0 ? g : null,
  };
}
