import { hash } from 'node:crypto';
import type { BlockProblem } from '@rootline/contracts/chain';
import { inclusionProof, leafHash, merkleRoot } from '@rootline/domain';
import { canonicalJson } from './canonical-json.js';
import { meetsDifficulty, searchRange } from './pow-search.mjs';

export type { BlockProblem };
export { meetsDifficulty };

export const GENESIS_PREVIOUS_HASH = '0'.repeat(64);

/** A ledger transaction as it is hashed and stored. */
export interface Transaction {
  id: string;
  type: string;
  /** Canonical JSON of the payload: the exact bytes behind payloadHash. */
  payload: string;
  payloadHash: string;
  timestamp: string;
}

export interface BlockHeader {
  index: number;
  timestamp: string;
  previousHash: string;
  merkleRoot: string;
  difficulty: number;
}

export interface Block extends BlockHeader {
  nonce: number;
  hash: string;
}

/** Builds a transaction from a JSON payload: canonical bytes and their SHA-256. */
export function makeTransaction(id: string, type: string, payload: unknown, timestamp: string): Transaction {
  const canonical = canonicalJson(payload);
  return { id, type, payload: canonical, payloadHash: hash('sha256', canonical), timestamp };
}

/** The leaf data a transaction contributes to the Merkle tree: `id|type|payloadHash|timestamp` (UTF-8). */
export function transactionLeafText(tx: Omit<Transaction, 'payload'>): string {
  return `${tx.id}|${tx.type}|${tx.payloadHash}|${tx.timestamp}`;
}

/** The bytes a transaction contributes as a Merkle leaf. */
export function transactionLeaf(tx: Omit<Transaction, 'payload'>): Buffer {
  return Buffer.from(transactionLeafText(tx), 'utf8');
}

/** Merkle root (hex) of a block's transactions, in block order. */
export function transactionsRoot(txs: readonly Omit<Transaction, 'payload'>[]): string {
  return merkleRoot(txs.map(transactionLeaf)).toString('hex');
}

/** RFC 6962 audit path (hex, leaf upwards) of the transaction at `position` among a block's transactions. */
export function transactionProof(
  txs: readonly Omit<Transaction, 'payload'>[],
  position: number,
): { leafHash: string; auditPath: string[] } {
  const leaves = txs.map((t) => leafHash(transactionLeaf(t)));
  return {
    leafHash: leaves[position]?.toString('hex') ?? '',
    auditPath: inclusionProof(leaves, position).map((b) => b.toString('hex')),
  };
}

/** The header bytes before the nonce: `index|timestamp|previousHash|merkleRoot|difficulty|`. */
export function headerPrefix(h: BlockHeader): string {
  return `${h.index}|${h.timestamp}|${h.previousHash}|${h.merkleRoot}|${h.difficulty}|`;
}

/** SHA-256 (hex) of a block header with its nonce. */
export function blockHash(h: BlockHeader, nonce: number): string {
  return hash('sha256', headerPrefix(h) + nonce);
}

/**
 * Searches nonces from `start` for at most `count` attempts; returns the first that meets the difficulty,
 * or undefined. Bounded so a caller can stop between slices of work.
 */
export function searchNonce(h: BlockHeader, start: number, count: number): { nonce: number; hash: string } | undefined {
  return searchRange(headerPrefix(h), h.difficulty, start, start + count);
}

/**
 * Checks one block against its transactions and its predecessor (none for genesis); [] means valid.
 * `difficulty-decreased` guards the work itself: a block claiming less work than its predecessor would let a
 * forger re-mine the chain cheaply, so difficulty may only stay or grow.
 */
export function verifyBlock(block: Block, txs: readonly Transaction[], previous?: Block): BlockProblem[] {
  const problems: BlockProblem[] = [];
  if (blockHash(block, block.nonce) !== block.hash) problems.push('hash-mismatch');
  if (!meetsDifficulty(block.hash, block.difficulty)) problems.push('insufficient-work');
  if (previous && block.difficulty < previous.difficulty) problems.push('difficulty-decreased');
  if (txs.some((t) => hash('sha256', t.payload) !== t.payloadHash)) problems.push('payload-hash-mismatch');
  if (transactionsRoot(txs) !== block.merkleRoot) problems.push('merkle-root-mismatch');
  if (previous) {
    if (block.previousHash !== previous.hash) problems.push('broken-link');
    if (block.index !== previous.index + 1) problems.push('index-gap');
  } else if (block.index !== 0 || block.previousHash !== GENESIS_PREVIOUS_HASH) {
    problems.push('broken-link');
  }
  return problems;
}

/** A block with its transactions in block order. */
export interface BlockWithTxs {
  block: Block;
  txs: readonly Transaction[];
}

/**
 * Verifies consecutive blocks in order, each against the one before it; `before` is the block preceding the
 * first (omit it when the range starts at genesis). Returns only the blocks that fail, with their problems.
 */
export function verifyBlocks(
  range: readonly BlockWithTxs[],
  before?: Block,
): { index: number; hash: string; problems: BlockProblem[] }[] {
  const failures: { index: number; hash: string; problems: BlockProblem[] }[] = [];
  let previous = before;
  for (const { block, txs } of range) {
    const problems = verifyBlock(block, txs, previous);
    if (problems.length > 0) failures.push({ index: block.index, hash: block.hash, problems });
    previous = block;
  }
  return failures;
}
