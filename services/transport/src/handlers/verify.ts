import {
  type BlockCheck,
  type BlockProblem,
  chainBlockGet,
  chainBlockVerify,
  transportBlockVerify,
} from '@rootline/contracts';
import { call, handle, type ServiceContext } from '@rootline/host';
import { eventIdsByTx } from '../db/events.repo.js';

/** Each problem the ledger's verification reports, in words, and which check it fails. */
export const PROBLEMS: Record<BlockProblem, { check: keyof BlockCheck['checks']; reason: string }> = {
  'hash-mismatch': { check: 'hash', reason: 'The block’s stored hash is not the hash of its header' },
  'insufficient-work': { check: 'proofOfWork', reason: 'The hash does not meet the block’s proof-of-work difficulty' },
  'difficulty-decreased': { check: 'proofOfWork', reason: 'The difficulty is lower than its predecessor’s' },
  'merkle-root-mismatch': {
    check: 'merkleRoot',
    reason: 'The Merkle root is not the root of the block’s transactions',
  },
  'payload-hash-mismatch': {
    check: 'transactions',
    reason: 'A transaction’s payload does not match its recorded payload hash (the data was altered)',
  },
  'broken-link': { check: 'link', reason: 'The previous-hash does not name the block before it' },
  'index-gap': { check: 'link', reason: 'The block’s height does not follow its predecessor’s' },
};

/**
 * transport.block.verify: the ledger's own verification of one block (`chain.block.verify`, no second verifier),
 * read with the block (`chain.block.get`) to name each check, each transaction and the journey event it records.
 */
export const verifyBlock = (ctx: ServiceContext) =>
  handle(transportBlockVerify, async ({ blockHash }, caller): Promise<BlockCheck> => {
    const [verdict, block] = await Promise.all([
      call(ctx.bus, chainBlockVerify, { hash: blockHash }, caller),
      call(ctx.bus, chainBlockGet, { hash: blockHash }, caller),
    ]);
    const checks = { hash: true, proofOfWork: true, link: true, merkleRoot: true, transactions: true };
    for (const p of verdict.problems) checks[PROBLEMS[p].check] = false;
    const byTx = await eventIdsByTx(
      ctx.db,
      block.transactions.map((t) => t.id),
    );
    return {
      index: block.index,
      hash: block.hash,
      previousHash: block.previousHash,
      merkleRoot: block.merkleRoot,
      difficulty: block.difficulty,
      nonce: block.nonce,
      timestamp: block.timestamp,
      verdict: verdict.valid ? 'valid' : 'invalid',
      checks,
      problems: verdict.problems.map((code) => ({ code, reason: PROBLEMS[code].reason })),
      transactions: block.transactions.map((t) => ({
        id: t.id,
        type: t.type,
        payloadHash: t.payloadHash,
        transportEventId: byTx.get(t.id) ?? null,
      })),
    };
  });
