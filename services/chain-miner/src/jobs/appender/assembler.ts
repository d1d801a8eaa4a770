import type { Transaction } from '../../domain/block.js';
import { type BlockContents, pickTransactions } from '../../domain/block-assembly.js';

/**
 * Which transactions make the next block: those in the mempool table (accepted by other instances) first, then
 * this instance's queue (accepted here, not in the table: see ../mempool.ts). The table is read when another
 * instance said it added some, when the previous read was full, and at least every `pollMs`.
 */
export function createAssembler(deps: {
  maxBlockTx: number;
  /** Longest time between reads of the table, in case a wake-up was missed. */
  pollMs: number;
  /** Reads up to `limit` transactions of the mempool table, oldest first. */
  readTable: (limit: number) => Promise<Transaction[]>;
  now?: () => number;
}) {
  const { maxBlockTx, pollMs, readTable } = deps;
  const now = deps.now ?? (() => performance.now());
  /** Transactions submitted to this instance, waiting for a block. */
  let queue: Transaction[] = [];
  /** The table may hold transactions (another instance added some, or the last read was full). */
  let tableDirty = true;
  let tableCheckedAt = Number.NEGATIVE_INFINITY;

  return {
    /** Queues a transaction submitted here; returns how many are queued. */
    accept(tx: Transaction): number {
      queue.push(tx);
      return queue.length;
    },

    /** Takes still-queued transactions out of the queue; returns the ids it removed. */
    withdraw(ids: readonly string[]): string[] {
      const out = new Set(ids);
      const removed = queue.filter((t) => out.has(t.id));
      if (removed.length > 0) queue = queue.filter((t) => !out.has(t.id));
      return removed.map((t) => t.id);
    },

    /** Empties the queue, returning what it held. */
    drain(): Transaction[] {
      const left = queue;
      queue = [];
      return left;
    },

    /** Puts transactions of a block that was not stored back at the front of the queue. */
    putBack(txs: readonly Transaction[]): void {
      queue = [...txs, ...queue];
    },

    /** Another instance added transactions to the table. */
    tableChanged(): void {
      tableDirty = true;
    },

    /** Whether more transactions may be waiting (queued, or in the table). */
    hasMore(): boolean {
      return tableDirty || queue.length > 0;
    },

    /** Transactions queued here. */
    queued(): number {
      return queue.length;
    },

    /** Transactions for the next block, excluding `storing` (the table's transactions of a block being stored). */
    async take(storing: readonly Transaction[] = []): Promise<BlockContents> {
      const skip = new Set(storing.map((t) => t.id));
      let rows: Transaction[] = [];
      if (tableDirty || now() - tableCheckedAt >= pollMs) {
        tableDirty = false;
        tableCheckedAt = now();
        rows = await readTable(maxBlockTx + skip.size);
      }
      const picked = pickTransactions({ rows, skip, queue, maxBlockTx });
      queue = picked.rest;
      if (picked.tableFull) tableDirty = true;
      return { fromTable: picked.fromTable, fromQueue: picked.fromQueue };
    },
  };
}

export type Assembler = ReturnType<typeof createAssembler>;
