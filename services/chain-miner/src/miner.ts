import { AppError, blockMined, newId, type TxReceipt } from '@rootline/contracts';
import type { Db, Outbox } from '@rootline/db';
import type { Clock, Logger } from '@rootline/host';
import { findTip, insertBlock, isUniqueViolation } from './db/chain.repo.js';
import {
  type Block,
  type BlockHeader,
  GENESIS_PREVIOUS_HASH,
  makeTransaction,
  searchNonce,
  type Transaction,
  transactionsRoot,
} from './domain/block.js';

export interface MinerOptions {
  difficulty: number;
  /** Most transactions one block holds. */
  maxBlockTx: number;
  /** How long the first submission waits for company before its block is assembled. */
  batchDelayMs: number;
}

interface Pending {
  tx: Transaction;
  resolve: (r: TxReceipt) => void;
  reject: (e: unknown) => void;
}

// Nonces tried between yields to the event loop, so the service keeps answering while it mines (~5 ms).
const SLICE = 20_000;
const MAX_APPEND_ATTEMPTS = 5;

/**
 * The mempool and block assembly: submissions share blocks; each submitter is answered with its block once
 * that block is mined and stored. Blocks are appended one at a time; a height taken by another writer is
 * detected by the unique key and the batch is re-mined on the new tip.
 */
export function createMiner(deps: { db: Db; outbox: Outbox; log: Logger; clock: Clock; options: MinerOptions }) {
  const { db, outbox, log, clock, options } = deps;
  const pending: Pending[] = [];
  let tip: Block | undefined;
  let loop: Promise<void> | undefined;

  async function mine(header: BlockHeader): Promise<Block> {
    for (let start = 0; ; start += SLICE) {
      const found = searchNonce(header, start, SLICE);
      if (found) return { ...header, ...found };
      await new Promise((r) => setImmediate(r));
    }
  }

  async function append(txs: Transaction[]): Promise<Block> {
    for (let attempt = 1; ; attempt++) {
      tip ??= await findTip(db);
      const header: BlockHeader = {
        index: tip ? tip.index + 1 : 0,
        timestamp: clock.now().toISOString(),
        previousHash: tip ? tip.hash : GENESIS_PREVIOUS_HASH,
        merkleRoot: transactionsRoot(txs),
        difficulty: options.difficulty,
      };
      const block = await mine(header);
      try {
        await db.transaction(async (t) => {
          await insertBlock(t, block, txs);
          await outbox.enqueue(
            t,
            blockMined,
            { index: block.index, hash: block.hash, txCount: txs.length },
            { requestId: newId('req') },
          );
        });
        tip = block;
        return block;
      } catch (err) {
        tip = undefined;
        if (!isUniqueViolation(err) || attempt >= MAX_APPEND_ATTEMPTS) throw err;
        log.warn({ index: block.index }, 'height taken by another writer; re-mining on the new tip');
      }
    }
  }

  async function drain(): Promise<void> {
    await new Promise((r) => setTimeout(r, options.batchDelayMs));
    while (pending.length > 0) {
      const batch = pending.splice(0, options.maxBlockTx);
      try {
        const block = await append(batch.map((p) => p.tx));
        for (const p of batch) {
          p.resolve({ txId: p.tx.id, blockIndex: block.index, blockHash: block.hash, timestamp: block.timestamp });
        }
      } catch (err) {
        log.error({ err, txs: batch.length }, 'block append failed');
        const failure = new AppError('CHAIN_ERROR', 'The ledger could not record the transaction');
        for (const p of batch) p.reject(failure);
      }
    }
  }

  function kick(): void {
    loop ??= drain().finally(() => {
      loop = undefined;
      if (pending.length > 0) kick();
    });
  }

  return {
    /** Creates the genesis block once; concurrent instances race safely on the unique height. */
    async ensureGenesis(): Promise<void> {
      if (await findTip(db)) return;
      try {
        await append([]);
        log.info('genesis block created');
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
      }
    },

    /** Queues one transaction; resolves with its receipt once its block is stored. */
    submit(type: string, payload: unknown): Promise<TxReceipt> {
      const now = clock.now().toISOString();
      let tx: Transaction;
      try {
        tx = makeTransaction(newId('tx'), type, payload, now);
      } catch (err) {
        return Promise.reject(new AppError('VALIDATION_ERROR', `payload: ${(err as Error).message}`));
      }
      return new Promise<TxReceipt>((resolve, reject) => {
        pending.push({ tx, resolve, reject });
        kick();
      });
    },

    /** Resolves when every queued transaction has been mined (used on shutdown). */
    async idle(): Promise<void> {
      while (loop) await loop;
    },

    difficulty: options.difficulty,
  };
}

export type Miner = ReturnType<typeof createMiner>;
