import { chainBlockGet, chainBlockVerify, chainLedgerVerify, LEDGER_VERIFY_LIMITS } from '@rootline/contracts';
import type { Db } from '@rootline/db';
import { handle, notFound } from '@rootline/host';
import {
  findBlockByHash,
  findBlockByIndex,
  findTip,
  listBlocks,
  listTransactions,
  type StoredTransaction,
} from '../db/chain.repo.js';
import { type BlockWithTxs, verifyBlock, verifyBlocks } from '../domain/block.js';

const toLedgerTransaction = (t: StoredTransaction) => ({
  id: t.id,
  position: t.position,
  type: t.type,
  payload: t.payload,
  payloadHash: t.payloadHash,
  timestamp: t.timestamp,
});

/** chain.block.get: a block and its transactions. */
export const getBlock = (db: Db) =>
  handle(chainBlockGet, async ({ hash }) => {
    const block = await findBlockByHash(db, hash);
    if (!block) throw notFound('Block', hash);
    const txs = await listTransactions(db, block.index, block.index);
    return {
      index: block.index,
      hash: block.hash,
      previousHash: block.previousHash,
      merkleRoot: block.merkleRoot,
      timestamp: block.timestamp,
      difficulty: block.difficulty,
      nonce: block.nonce,
      txCount: block.txCount,
      transactions: txs.map(toLedgerTransaction),
    };
  });

/** chain.block.verify: every check of one block, against its stored predecessor. */
export const verifyOneBlock = (db: Db) =>
  handle(chainBlockVerify, async ({ hash }) => {
    const block = await findBlockByHash(db, hash);
    if (!block) throw notFound('Block', hash);
    const [txs, previous] = await Promise.all([
      listTransactions(db, block.index, block.index),
      block.index > 0 ? findBlockByIndex(db, block.index - 1) : undefined,
    ]);
    const problems = verifyBlock(block, txs, previous);
    return { index: block.index, hash: block.hash, valid: problems.length === 0, problems };
  });

/**
 * chain.ledger.verify: verifies up to `limit` blocks from height `from`, each against the one before (the block
 * before `from` included), and says where to continue. A range also ends once it holds the transaction bound,
 * so one call stays cheap whatever the block sizes.
 */
export const verifyLedger = (db: Db) =>
  handle(chainLedgerVerify, async ({ from, limit }) => {
    const [candidates, tip, before] = await Promise.all([
      listBlocks(db, from, limit),
      findTip(db),
      from > 0 ? findBlockByIndex(db, from - 1) : undefined,
    ]);
    const blocks = [];
    let txTotal = 0;
    for (const b of candidates) {
      if (blocks.length > 0 && txTotal + b.txCount > LEDGER_VERIFY_LIMITS.maxTransactions) break;
      blocks.push(b);
      txTotal += b.txCount;
    }
    const last = blocks.at(-1);
    const txs = last ? await listTransactions(db, blocks[0]!.index, last.index) : [];
    const byBlock = new Map<number, StoredTransaction[]>();
    for (const t of txs) {
      const list = byBlock.get(t.blockIndex) ?? [];
      list.push(t);
      byBlock.set(t.blockIndex, list);
    }
    const range: BlockWithTxs[] = blocks.map((block) => ({ block, txs: byBlock.get(block.index) ?? [] }));
    const invalidBlocks = verifyBlocks(range, before).map((f) => ({ ...f, valid: false }));
    return {
      valid: invalidBlocks.length === 0,
      from,
      to: last ? last.index : null,
      checkedBlocks: blocks.length,
      checkedTransactions: txs.length,
      tipIndex: tip ? tip.index : null,
      next: last && tip && last.index < tip.index ? last.index + 1 : null,
      invalidBlocks,
    };
  });
