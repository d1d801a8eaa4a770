import { blockMined, newId } from '@rootline/contracts';
import type { Db, Outbox } from '@rootline/db';
import type { Logger, ServiceMetrics } from '@rootline/host';
import { findReceipts, findTip, insertBlock, isUniqueViolation, type StoredBlock } from '../../db/chain.repo.js';
import { renewLease } from '../../db/lease.repo.js';
import { removePending } from '../../db/mempool.repo.js';
import { BLOCK_CHANNEL, notify } from '../../db/notify.repo.js';
import type { Block, Transaction } from '../../domain/block.js';
import { blockTransactions, type Mined } from '../../domain/block-assembly.js';
import type { Mempool } from '../mempool.js';

/** Pause after a failed block before the next attempt. */
export const RETRY_MS = 200;

/** Thrown inside a block's transaction when the lease is no longer ours: the block must not be stored. */
export class LeaseLost extends Error {}
/** Thrown when a transaction of the block was withdrawn from the mempool meanwhile (its submitter gave up). */
class MempoolChanged extends Error {}

/**
 * Stores mined blocks and answers their submitters. It keeps the tip of the chain and at most one block being
 * stored in the background while the next is mined on top of it; when a block is not stored, its queued
 * transactions go back to the queue and the tip is read again.
 */
export function createCommitter(deps: {
  db: Db;
  outbox: Outbox;
  log: Logger;
  metrics: ServiceMetrics;
  mempool: Pick<Mempool, 'confirmBlock' | 'confirmReceipts'>;
  instanceId: string;
  leaseMs: number;
  /** Puts transactions of a block that was not stored back at the front of the queue. */
  putBack: (txs: readonly Transaction[]) => void;
  /** A block was not stored: the appender looks at its work again. */
  onFailed: () => void;
}) {
  const { db, log, mempool } = deps;
  const blocksMined = deps.metrics.counter({
    name: 'chain_blocks_mined_total',
    help: 'Blocks mined and stored by this instance while it held the appender lease',
  });
  const blockInterval = deps.metrics.histogram({
    name: 'chain_block_interval_seconds',
    help: 'Time between two blocks stored by this appender',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
  });
  /** The last block of the chain as far as this appender knows; undefined: to be read again. */
  let tip: StoredBlock | Block | undefined;
  /** The block being stored, and its outcome (the error, or undefined when stored). */
  let storing: { mined: Mined; done: Promise<unknown> } | undefined;
  /** When (performance.now()) this appender stored its previous block; none yet: undefined. */
  let storedAt: number | undefined;

  /**
   * Stores a mined block in one transaction that fences the lease, inserts the block and its transactions,
   * removes the table's ones from the mempool (all of them, or nothing is stored), and queues the event and
   * the NOTIFY; then answers this instance's submitters.
   */
  async function commit(mined: Mined): Promise<void> {
    const { block, fromTable } = mined;
    const txs = blockTransactions(mined);
    await db.transaction(async (t) => {
      if (!(await renewLease(t, deps.instanceId, deps.leaseMs))) throw new LeaseLost();
      await insertBlock(t, block, txs);
      if (fromTable.length > 0) {
        const removed = await removePending(
          t,
          fromTable.map((x) => x.id),
        );
        if (removed.length !== fromTable.length) throw new MempoolChanged();
      }
      await deps.outbox.enqueue(
        t,
        blockMined,
        { index: block.index, hash: block.hash, txCount: txs.length },
        { requestId: newId('req', Date.parse(block.timestamp)) },
      );
      await notify(
        t,
        BLOCK_CHANNEL,
        JSON.stringify({ index: block.index, hash: block.hash, timestamp: block.timestamp }),
      );
    });
    tip = block;
    const now = performance.now();
    blocksMined.inc();
    if (storedAt !== undefined) blockInterval.observe((now - storedAt) / 1000);
    storedAt = now;
    mempool.confirmBlock(block, txs);
  }

  /**
   * Puts queued transactions of a block that was not stored back at the front of the queue, except those the
   * chain holds after all (a commit whose outcome the error left unknown).
   */
  async function requeue(txs: Transaction[]): Promise<void> {
    if (txs.length === 0) return;
    const found = await findReceipts(
      db,
      txs.map((t) => t.id),
    ).catch(() => []);
    mempool.confirmReceipts(found);
    const recorded = new Set(found.map((r) => r.txId));
    deps.putBack(txs.filter((t) => !recorded.has(t.id)));
  }

  /** Removes from the mempool table the given transactions that a block already holds, answering their waiters. */
  async function dropRecordedFromTable(txs: Transaction[]): Promise<void> {
    if (txs.length === 0) return;
    try {
      const found = await findReceipts(
        db,
        txs.map((t) => t.id),
      );
      await removePending(
        db,
        found.map((r) => r.txId),
      );
      mempool.confirmReceipts(found);
    } catch (err) {
      log.warn({ err }, 'could not drop recorded transactions from the mempool table');
    }
  }

  /** After a block was not stored: its queued transactions go back, and the tip is read again. */
  async function recover(err: unknown, failed: Mined[]): Promise<void> {
    for (const m of failed.reverse()) await requeue(m.fromQueue);
    // A chosen id added to the table again after its block was stored would fail every block: drop it there.
    if (isUniqueViolation(err)) await dropRecordedFromTable(failed.flatMap((m) => m.fromTable));
    tip = undefined;
    deps.onFailed();
    if (err instanceof LeaseLost) throw err;
    if (err instanceof MempoolChanged) {
      log.info('a transaction was withdrawn while its block was mined; assembling again');
    } else {
      log.error({ err }, 'block append failed; its transactions stay queued');
      await new Promise((r) => setTimeout(r, RETRY_MS));
    }
  }

  return {
    /** The last block of the chain as far as this appender knows; undefined when it must be read again. */
    tip: () => tip,

    /** Reads the tip from the database. */
    async loadTip(): Promise<StoredBlock | Block | undefined> {
      tip = await findTip(db);
      return tip;
    },

    /** After a failure: the tip is read again before the next block. */
    forgetTip(): void {
      tip = undefined;
    },

    /** The block the next one is mined on: the one being stored, else the tip. */
    head: (): Block | undefined => storing?.mined.block ?? tip,

    /** The block being stored, if any. */
    storing: (): Mined | undefined => storing?.mined,

    /** Stores a block and waits for it (the genesis block). */
    commit,

    /** Starts storing a block in the background; `settle` waits for it. */
    store(mined: Mined): void {
      storing = {
        mined,
        done: commit(mined).then(
          () => undefined,
          (err: unknown) => err ?? new Error('block commit failed'),
        ),
      };
    },

    /**
     * Waits for the block being stored; when it failed, puts its transactions and those of `extra` (mined on top
     * of it, so void too) back, then rethrows a lost lease.
     */
    async settle(extra: Mined[] = []): Promise<void> {
      const s = storing;
      storing = undefined;
      if (!s) return;
      const err = await s.done;
      if (err !== undefined) await recover(err, [s.mined, ...extra]);
    },

    requeue,
  };
}

export type Committer = ReturnType<typeof createCommitter>;
