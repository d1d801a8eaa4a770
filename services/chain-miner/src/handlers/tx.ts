import {
  chainStatsGet,
  chainTxProof,
  chainTxSubmit,
  chainTxSubmitBatch,
  isAppError,
  type TxBatchResult,
} from '@rootline/contracts';
import type { Db } from '@rootline/db';
import { handle, notFound } from '@rootline/host';
import { findBlockByIndex, findTip, findTransaction, listTransactions } from '../db/chain.repo.js';
import { findLease } from '../db/lease.repo.js';
import { countPending } from '../db/mempool.repo.js';
import { transactionLeafText, transactionProof } from '../domain/block.js';
import type { Miner } from '../jobs/miner.js';

/** chain.tx.submit: queue a transaction and answer once its block is mined and stored. */
export const submitTx = (miner: Miner) =>
  handle(chainTxSubmit, (input) => miner.submit(input.type, input.payload, input.id));

/**
 * chain.tx.submit-batch: each transaction is submitted exactly as `chain.tx.submit` would submit it (so it shares
 * blocks with every other submission); the reply waits for all of them, one result each, in request order. One
 * failed transaction does not fail the others: its result carries the error instead of a receipt.
 */
export const submitTxBatch = (miner: Miner) =>
  handle(chainTxSubmitBatch, async ({ transactions }, call) => {
    const settled = await miner.submitMany(transactions);
    const results = settled.map((s, position): TxBatchResult => {
      if (s.status === 'fulfilled') return { ok: true, receipt: s.value };
      if (isAppError(s.reason)) return { ok: false, error: s.reason.toBody() };
      call.log.error({ err: s.reason, position }, 'batch transaction failed');
      return { ok: false, error: { code: 'CHAIN_ERROR', message: 'The ledger could not record the transaction' } };
    });
    return { results };
  });

/** chain.tx.proof: the RFC 6962 audit path of a transaction in its block. */
export const getTxProof = (db: Db) =>
  handle(chainTxProof, async ({ txId }) => {
    const tx = await findTransaction(db, txId);
    if (!tx) throw notFound('Transaction', txId);
    const [block, txs] = await Promise.all([
      findBlockByIndex(db, tx.blockIndex),
      listTransactions(db, tx.blockIndex, tx.blockIndex),
    ]);
    if (!block) throw notFound('Block', String(tx.blockIndex));
    const { leafHash, auditPath } = transactionProof(txs, tx.position);
    return {
      txId,
      blockIndex: block.index,
      blockHash: block.hash,
      merkleRoot: block.merkleRoot,
      leafIndex: tx.position,
      treeSize: txs.length,
      leaf: transactionLeafText(tx),
      leafHash,
      auditPath,
    };
  });

/** chain.stats.get: length, difficulty, transactions, mempool and the current appender. */
export const getStats = (db: Db, configuredDifficulty: number) =>
  handle(chainStatsGet, async () => {
    const [tip, mempool, lease] = await Promise.all([findTip(db), countPending(db), findLease(db)]);
    return {
      // Heights are contiguous from 0 (the unique height key and one appender at a time), so length = tip + 1.
      chainLength: tip ? tip.index + 1 : 0,
      difficulty: Math.max(configuredDifficulty, tip?.difficulty ?? 0),
      tip: tip ? { index: tip.index, hash: tip.hash } : null,
      transactions: tip?.txTotal ?? 0,
      mempool,
      appender: lease
        ? {
            instance: lease.holder,
            process: lease.process,
            term: lease.term,
            since: lease.acquiredAt.toISOString(),
            hashes: lease.hashes,
            hashRate: lease.hashRate,
            helpers: lease.helpers,
          }
        : null,
    };
  });
