import { hash } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';
import { merkleRoot } from './merkle.js';

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

/** The bytes a transaction contributes as a Merkle leaf: `id|type|payloadHash|timestamp` in UTF-8. */
export function transactionLeaf(tx: Transaction): Buffer {
  return Buffer.from(`${tx.id}|${tx.type}|${tx.payloadHash}|${tx.timestamp}`, 'utf8');
}

/** Merkle root (hex) of a block's transactions, in block order. */
export function transactionsRoot(txs: readonly Transaction[]): string {
  return merkleRoot(txs.map(transactionLeaf)).toString('hex');
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
 * True when the hex hash has at least `difficulty` leading zero bits: difficulty 16 means the first four hex
 * digits are 0, so about 65,536 attempts are needed on average.
 */
export function meetsDifficulty(hex: string, difficulty: number): boolean {
  const fullNibbles = difficulty >> 2;
  for (let i = 0; i < fullNibbles; i++) if (hex.charCodeAt(i) !== 48) return false;
  const rest = difficulty & 3;
  if (rest === 0) return true;
  return Number.parseInt(hex[fullNibbles]!, 16) < 1 << (4 - rest);
}

/**
 * Searches nonces from `start` for at most `count` attempts; returns the first that meets the difficulty,
 * or undefined. Bounded so a caller can yield between slices of work.
 */
export function searchNonce(h: BlockHeader, start: number, count: number): { nonce: number; hash: string } | undefined {
  const prefix = headerPrefix(h);
  const end = start + count;
  for (let nonce = start; nonce < end; nonce++) {
    const digest = hash('sha256', prefix + nonce);
    if (meetsDifficulty(digest, h.difficulty)) return { nonce, hash: digest };
  }
  return undefined;
}

export type BlockProblem =
  | 'hash-mismatch'
  | 'insufficient-work'
  | 'merkle-root-mismatch'
  | 'payload-hash-mismatch'
  | 'broken-link'
  | 'index-gap';

/** Checks one block against its transactions and (unless genesis) its predecessor; [] means valid. */
export function verifyBlock(block: Block, txs: readonly Transaction[], previous?: Block): BlockProblem[] {
  const problems: BlockProblem[] = [];
  if (blockHash(block, block.nonce) !== block.hash) problems.push('hash-mismatch');
  if (!meetsDifficulty(block.hash, block.difficulty)) problems.push('insufficient-work');
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
