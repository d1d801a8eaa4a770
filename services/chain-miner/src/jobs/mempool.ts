import { AppError, newId, type TxReceipt } from '@rootline/contracts';
import type { Db } from '@rootline/db';
import type { Clock, Logger } from '@rootline/host';
import { findReceipts, transactionIdsOfBlock } from '../db/chain.repo.js';
import { addPending, removePending } from '../db/mempool.repo.js';
import { type Block, makeTransaction, type Transaction } from '../domain/block.js';

export interface MempoolOptions {
  /**
   * How long a submitter waits for its block. Past it the transaction is withdrawn from the mempool and the
   * submitter gets CHAIN_ERROR; keep it below the callers' request timeout so they see that answer.
   */
  confirmTimeoutMs: number;
}

/** A block as announced to waiting submitters. */
export interface BlockNotice {
  index: number;
  hash: string;
  timestamp: string;
}

/** A transaction as submitted: its id is the submitter's choice, or fresh. */
export interface SubmittedTx {
  type: string;
  payload: unknown;
  id?: string;
}

interface Waiter {
  tx: Transaction;
  resolve: (r: TxReceipt) => void;
  reject: (e: unknown) => void;
  /** Settles with the waiter: a second submission of the same id waits on it too. */
  done: Promise<TxReceipt>;
  /**
   * The submitter chose the id, so another submitter (of another instance) may hold the same transaction: a
   * withdrawal of this copy does not prove the id unrecorded.
   */
  chosen: boolean;
  /** When the transaction was handed on (ms): in the mempool table, or to the appender of this instance. */
  pooledAt?: number;
  /** Handed straight to the appender of this instance, not written to the table. */
  local?: boolean;
}

/** The appender of this instance, as the submission side sees it. */
export interface LocalAppender {
  /** Queues a transaction for the next block. */
  accept(tx: Transaction): void;
  /** Takes still-queued transactions out of the queue; resolves to the ids it removed (not those being mined). */
  withdraw(ids: readonly string[]): string[];
}

/** Checks of waiting submitters: receipts missed by a lost notification, and expired waits. */
const SWEEP_MS = 250;
/** A waiter this old is looked up in the chain directly, in case its block's notification was missed. */
const LOOKUP_AFTER_MS = 1000;

/**
 * The submission side of the mempool, in every instance. On the appending instance a submitted transaction goes
 * straight to the appender's queue; elsewhere it is written to the shared mempool table (submissions of one
 * event-loop turn share one INSERT), where the appender takes it from. Either way its submitter waits until the
 * block holding it is committed, learnt from the appender directly (same instance) or from the block NOTIFY.
 * A transaction only in memory needs no durability: if the process dies, its submitter (in the same process)
 * was never answered.
 * A submitter is answered with a receipt only after that commit, and with CHAIN_ERROR only when the
 * transaction is certainly not recorded (its insert failed, or it was withdrawn unmined), except when the
 * database cannot even be asked, which the error's details say.
 */
export function createMempool(deps: {
  db: Db;
  log: Logger;
  clock: Clock;
  options: MempoolOptions;
  /** Called after transactions were added, to wake the appender. */
  onAdded: () => Promise<void>;
}) {
  const { db, log, clock, options } = deps;
  const waiters = new Map<string, Waiter>();
  let queue: Waiter[] = [];
  let flushing: Promise<void> | undefined;
  let sweeping = false;
  let timer: NodeJS.Timeout | undefined;
  /** Highest block whose waiters this instance settled itself (it appended it). */
  let settledUpTo = -1;
  let local: LocalAppender | undefined;

  const resolveWith = (receipt: TxReceipt) => {
    const w = waiters.get(receipt.txId);
    if (!w) return;
    waiters.delete(receipt.txId);
    w.resolve(receipt);
  };

  const rejectWith = (w: Waiter, message: string, recorded: boolean | 'unknown') => {
    if (waiters.get(w.tx.id) !== w) return;
    waiters.delete(w.tx.id);
    const certain = recorded === false && !w.chosen ? false : recorded === false ? 'unknown' : recorded;
    w.reject(new AppError('CHAIN_ERROR', message, { txId: w.tx.id, recorded: certain }));
  };

  async function flush(): Promise<void> {
    // Submissions that arrive in the same turn of the event loop share the INSERT.
    await new Promise((r) => setImmediate(r));
    const batch = queue;
    queue = [];
    try {
      await addPending(
        db,
        batch.map((w) => w.tx),
      );
    } catch (err) {
      log.error({ err, txs: batch.length }, 'mempool insert failed');
      for (const w of batch) rejectWith(w, 'The ledger could not accept the transaction', false);
      return;
    }
    const now = performance.now();
    for (const w of batch) w.pooledAt = now;
    await deps.onAdded().catch((err: unknown) => log.warn({ err }, 'could not wake the appender'));
  }

  function scheduleFlush(): void {
    flushing ??= flush().finally(() => {
      flushing = undefined;
      if (queue.length > 0) scheduleFlush();
    });
  }

  async function sweep(): Promise<void> {
    if (sweeping || waiters.size === 0) return;
    sweeping = true;
    try {
      const now = performance.now();
      const late: Waiter[] = [];
      const expired: Waiter[] = [];
      for (const w of waiters.values()) {
        if (w.pooledAt === undefined) continue;
        if (now - w.pooledAt >= options.confirmTimeoutMs) expired.push(w);
        else if (!w.local && now - w.pooledAt >= LOOKUP_AFTER_MS) late.push(w);
      }
      if (late.length > 0) {
        for (const r of await findReceipts(
          db,
          late.map((w) => w.tx.id),
        )) {
          resolveWith(r);
        }
      }
      const expiredLocal = expired.filter((w) => w.local);
      if (expiredLocal.length > 0 && local) {
        // Queued here and not yet in a block: withdrawn for certain. Those being mined wait for their block.
        const removed = local.withdraw(expiredLocal.map((w) => w.tx.id));
        for (const id of removed) {
          const w = waiters.get(id);
          if (w) rejectWith(w, `No block recorded the transaction within ${options.confirmTimeoutMs} ms`, false);
        }
      }
      const expiredTable = expired.filter((w) => !w.local);
      if (expiredTable.length > 0) await withdraw(expiredTable);
    } catch (err) {
      log.warn({ err }, 'mempool sweep failed');
    } finally {
      sweeping = false;
    }
  }

  /**
   * Withdraws transactions that waited too long. Deleting the mempool row decides the race with the appender:
   * a block commit deletes the same rows and fails if one is gone, so a withdrawn transaction is never mined,
   * and one that could not be withdrawn is in a block.
   */
  async function withdraw(expired: Waiter[]): Promise<void> {
    let removed: Set<string>;
    try {
      removed = new Set(
        await removePending(
          db,
          expired.map((w) => w.tx.id),
        ),
      );
    } catch (err) {
      log.error({ err, txs: expired.length }, 'could not withdraw unconfirmed transactions');
      for (const w of expired) rejectWith(w, 'The ledger did not confirm the transaction in time', 'unknown');
      return;
    }
    const rest = expired.filter((w) => !removed.has(w.tx.id));
    for (const r of await findReceipts(
      db,
      rest.map((w) => w.tx.id),
    )) {
      resolveWith(r);
    }
    for (const w of expired) {
      if (removed.has(w.tx.id)) {
        rejectWith(w, `No block recorded the transaction within ${options.confirmTimeoutMs} ms`, false);
      } else {
        rejectWith(w, 'The ledger did not confirm the transaction in time', 'unknown');
      }
    }
  }

  /** Submits one transaction not known to be in a block; a chosen id already waited for joins that wait. */
  function submitOne(t: SubmittedTx): Promise<TxReceipt> {
    if (t.id !== undefined) {
      const w = waiters.get(t.id);
      if (w) return w.done;
    }
    let tx: Transaction;
    try {
      tx = makeTransaction(t.id ?? newId('tx', clock.now().getTime()), t.type, t.payload, clock.now().toISOString());
    } catch (err) {
      return Promise.reject(new AppError('VALIDATION_ERROR', `payload: ${(err as Error).message}`));
    }
    let settle!: Pick<Waiter, 'resolve' | 'reject'>;
    const done = new Promise<TxReceipt>((resolve, reject) => {
      settle = { resolve, reject };
    });
    const w: Waiter = { tx, ...settle, done, chosen: t.id !== undefined };
    waiters.set(tx.id, w);
    if (local) {
      w.local = true;
      w.pooledAt = performance.now();
      local.accept(tx);
    } else {
      queue.push(w);
      scheduleFlush();
    }
    return done;
  }

  /**
   * Accepts transactions; each resolves with its receipt once the block holding it is committed. A
   * transaction with a chosen `id` is idempotent: an id already in a block is answered with its receipt (one
   * lookup for the whole call), an id this instance already waits for joins that wait, and an id waiting in
   * the mempool table is not inserted twice. So the ledger never holds two transactions with one id.
   */
  async function submitMany(txs: readonly SubmittedTx[]): Promise<PromiseSettledResult<TxReceipt>[]> {
    const chosen = txs.flatMap((t) => (t.id !== undefined && !waiters.has(t.id) ? [t.id] : []));
    const known = new Map<string, TxReceipt>();
    if (chosen.length > 0) {
      try {
        for (const r of await findReceipts(db, chosen)) known.set(r.txId, r);
      } catch (err) {
        log.error({ err, txs: chosen.length }, 'could not look up submitted transaction ids');
        const error = new AppError('UNAVAILABLE', 'The ledger could not look up the transaction', {
          recorded: 'unknown',
        });
        return txs.map(() => ({ status: 'rejected', reason: error }));
      }
    }
    return Promise.allSettled(
      txs.map((t) => {
        const receipt = t.id === undefined ? undefined : known.get(t.id);
        return receipt ? Promise.resolve(receipt) : submitOne(t);
      }),
    );
  }

  return {
    submitMany,

    /** Accepts one transaction (see `submitMany`). */
    async submit(type: string, payload: unknown, id?: string): Promise<TxReceipt> {
      const [result] = await submitMany([{ type, payload, ...(id === undefined ? {} : { id }) }]);
      if (result!.status === 'rejected') throw result!.reason;
      return result!.value;
    },

    /** Routes new submissions to this instance's appender (or, with undefined, to the table again). */
    setLocal(appender: LocalAppender | undefined): void {
      local = appender;
    },

    /**
     * The appender of this instance stopped with transactions still queued: they go to the table for the next
     * appender, and their submitters keep waiting. If that fails they are answered CHAIN_ERROR (not recorded).
     */
    async handOver(txs: readonly Transaction[]): Promise<void> {
      const mine = txs.flatMap((t) => {
        const w = waiters.get(t.id);
        return w ? [w] : [];
      });
      if (mine.length === 0) return;
      try {
        await addPending(
          db,
          mine.map((w) => w.tx),
        );
      } catch (err) {
        log.error({ err, txs: mine.length }, 'could not hand queued transactions over to the mempool table');
        for (const w of mine) rejectWith(w, 'The ledger could not keep the transaction', false);
        return;
      }
      const now = performance.now();
      for (const w of mine) {
        w.local = false;
        w.pooledAt = now;
      }
      await deps.onAdded().catch((err: unknown) => log.warn({ err }, 'could not wake the appender'));
    },

    /** Answers the submitters of transactions found in the chain. */
    confirmReceipts(receipts: readonly TxReceipt[]): void {
      for (const r of receipts) resolveWith(r);
    },

    /** The appender of this instance committed `block` holding `txs`. */
    confirmBlock(block: Block, txs: readonly Transaction[]): void {
      settledUpTo = Math.max(settledUpTo, block.index);
      for (const t of txs) {
        resolveWith({ txId: t.id, blockIndex: block.index, blockHash: block.hash, timestamp: block.timestamp });
      }
    },

    /** Another instance committed a block: answer the submitters waiting here for its transactions. */
    async onBlock(notice: BlockNotice): Promise<void> {
      if (waiters.size === 0 || notice.index <= settledUpTo) return;
      try {
        for (const txId of await transactionIdsOfBlock(db, notice.index)) {
          resolveWith({ txId, blockIndex: notice.index, blockHash: notice.hash, timestamp: notice.timestamp });
        }
      } catch (err) {
        // The sweep finds these receipts later.
        log.warn({ err, block: notice.index }, 'could not read the transactions of a new block');
      }
    },

    /** Transactions this instance is waiting on. */
    waiting(): number {
      return waiters.size;
    },

    start(): void {
      timer ??= setInterval(() => void sweep(), SWEEP_MS);
      timer.unref();
    },

    /** Stops the sweep; submitters still waiting (none after a drain) get CHAIN_ERROR. */
    async stop(): Promise<void> {
      clearInterval(timer);
      timer = undefined;
      await flushing;
      for (const w of [...waiters.values()]) rejectWith(w, 'The ledger is shutting down', 'unknown');
    },
  };
}

export type Mempool = ReturnType<typeof createMempool>;
