import type { Bus } from '@rootline/bus';
import {
  AppError,
  type CallContext,
  chainTxSubmitBatch,
  type ErrorBody,
  isAppError,
  newId,
  TX_BATCH_MAX,
  type TxBatchResult,
  type TxReceipt,
} from '@rootline/contracts';
import type { Db, Outbox, PendingEvent } from '@rootline/db';
import type { SQL } from 'drizzle-orm';
import { call } from './client.js';
import type { Logger } from './logger.js';
import type { HandlerContext } from './service.js';

/** One write that must be on the ledger: its transaction, and what is stored once its block is known. */
export interface LedgerWrite<R> {
  /**
   * The transaction id (`tx_…`), chosen by the submitter so that a retry names the same transaction: the ledger
   * records one transaction per id and answers a second submission with the first one's receipt. Derive it from
   * the record's id (`ledgerTxId`). Without it the ledger picks a fresh id.
   */
  txId?: string;
  /** Transaction type, e.g. `plant.register`. */
  txType: string;
  payload: Record<string, unknown>;
  /** What `store` turns into rows once the receipt is known (plain data, e.g. a row without its block fields). */
  record: R;
  /** Events committed with the rows, in order. */
  events: PendingEvent[];
}

/** A write whose transaction is in a block. */
export interface Recorded<R> {
  record: R;
  receipt: TxReceipt;
}

/** Most bytes of ledger payloads in one batch message: well under NATS's default message limit of 1 MiB. */
export const MAX_BATCH_PAYLOAD_BYTES = 256 * 1024;

/** How long a client should wait before retrying a write the ledger could not take (Retry-After, seconds). */
export const LEDGER_RETRY_AFTER_SECONDS = 2;

/** The transaction id of a record: `tx_` and the record id's own part, so one record has one transaction. */
export function ledgerTxId(recordId: string): string {
  return `tx_${recordId.slice(recordId.indexOf('_') + 1)}`;
}

/** An upper bound of a payload's size on the wire: JSON text, at most 3 UTF-8 bytes per UTF-16 unit. */
function payloadBytes(payload: unknown): number {
  return JSON.stringify(payload).length * 3;
}

/**
 * A failed ledger submission as the caller sees it. The ledger refusing the transaction (it is certainly not
 * recorded: a bad payload, a withdrawn transaction) stays CHAIN_ERROR. The ledger not answering (no chain-miner,
 * a timeout, a lost connection) or not knowing whether it recorded it is an outage: UNAVAILABLE, with
 * `retryAfterSeconds` for the Retry-After header; a retry with the same transaction id is safe.
 */
export function ledgerError({ code, message, details }: ErrorBody): AppError {
  const recorded = (details as { recorded?: unknown } | undefined)?.recorded;
  if (code === 'UNAVAILABLE' || (code === 'CHAIN_ERROR' && recorded === 'unknown')) {
    return new AppError('UNAVAILABLE', 'The ledger is unavailable; retry shortly', {
      cause: code,
      retryAfterSeconds: LEDGER_RETRY_AFTER_SECONDS,
    });
  }
  if (code === 'CHAIN_ERROR' || code === 'VALIDATION_ERROR') return new AppError('CHAIN_ERROR', message, details);
  return new AppError('CHAIN_ERROR', 'The ledger could not record the write', { cause: code });
}

interface Waiting<R> {
  write: LedgerWrite<R>;
  /** Upper bound of its payload's bytes in the batch message. */
  bytes: number;
  caller: HandlerContext;
  resolve: (receipt: TxReceipt) => void;
  reject: (err: unknown) => void;
}

/** Options of `createLedgerRecorder`. */
export interface LedgerRecorderOptions<R> {
  db: Db;
  bus: Bus;
  outbox: Outbox;
  log: Logger;
  /**
   * The state changes of recorded writes, as plain INSERT/UPDATE/DELETE statements (e.g. one `insertFromJson`
   * for all their rows). They run in one statement with the events (`outbox.commitWith`). At least one must
   * insert on a unique key derived from the record's id, so that storing the same write twice fails instead
   * of duplicating it.
   */
  store: (recorded: readonly Recorded<R>[]) => SQL[];
  maxBatch?: number;
  maxBatchBytes?: number;
}

/**
 * Records writes that must be on the ledger, in batches (group commit). Writes that arrive in the same turn of
 * the event loop share one ledger message (`chain.tx.submit-batch`) and, once their blocks are known, one
 * database statement writing their rows (`store`) and events. A lone write is a batch of one. A batch holds at
 * most TX_BATCH_MAX writes and MAX_BATCH_PAYLOAD_BYTES of payloads; batches run concurrently.
 *
 * Order of writes: the ledger first, then the rows, so a stored record always has its block; a write is
 * acknowledged only after its rows commit. If the batch's statement fails, each write is retried in a statement
 * of its own, so one bad row cannot fail the others. For ordinary CRUD (no ledger) use one `db.transaction`
 * with the repository and `outbox.enqueue` instead.
 */
export function createLedgerRecorder<R>(opts: LedgerRecorderOptions<R>) {
  const { db, bus, outbox, log } = opts;
  const maxBatch = Math.min(opts.maxBatch ?? TX_BATCH_MAX, TX_BATCH_MAX);
  const maxBatchBytes = opts.maxBatchBytes ?? MAX_BATCH_PAYLOAD_BYTES;
  let queue: Waiting<R>[] = [];
  let scheduled = false;

  /** The context of a batch's ledger call: its caller's for a batch of one, otherwise a request of its own. */
  function batchContext(batch: readonly Waiting<R>[]): CallContext {
    if (batch.length === 1) return batch[0]!.caller;
    const requestId = newId('req');
    if (log.isLevelEnabled('debug')) {
      log.debug({ batch: requestId, requests: batch.map((w) => w.caller.requestId) }, 'writes recorded as one batch');
    }
    return { requestId };
  }

  async function submit(batch: readonly Waiting<R>[]): Promise<TxBatchResult[]> {
    try {
      const transactions = batch.map(({ write }) => ({
        type: write.txType,
        payload: write.payload,
        ...(write.txId ? { id: write.txId } : {}),
      }));
      const { results } = await call(bus, chainTxSubmitBatch, { transactions }, batchContext(batch));
      if (results.length !== batch.length)
        throw new Error(`${results.length} results for ${batch.length} transactions`);
      return results;
    } catch (err) {
      if (isAppError(err)) return batch.map(() => ({ ok: false, error: err.toBody() }));
      log.error({ err, writes: batch.length }, 'ledger submission failed');
      return batch.map(() => ({ ok: false, error: { code: 'UNAVAILABLE', message: 'ledger submission failed' } }));
    }
  }

  async function commit(recorded: readonly (Recorded<R> & { waiting: Waiting<R> })[]): Promise<void> {
    await outbox.commitWith(
      db,
      opts.store(recorded),
      recorded.flatMap((r) => r.waiting.write.events),
    );
  }

  async function run(batch: Waiting<R>[]): Promise<void> {
    const results = await submit(batch);
    const recorded: (Recorded<R> & { waiting: Waiting<R> })[] = [];
    results.forEach((result, i) => {
      const waiting = batch[i]!;
      if (result.ok) recorded.push({ waiting, record: waiting.write.record, receipt: result.receipt });
      else waiting.reject(ledgerError(result.error));
    });
    if (recorded.length === 0) return;
    try {
      await commit(recorded);
      for (const r of recorded) r.waiting.resolve(r.receipt);
      return;
    } catch (err) {
      if (recorded.length === 1) {
        recorded[0]!.waiting.reject(err);
        return;
      }
      log.warn({ err, writes: recorded.length }, 'batch insert failed; storing its writes one by one');
    }
    await Promise.all(
      recorded.map((r) =>
        commit([r]).then(
          () => r.waiting.resolve(r.receipt),
          (err: unknown) => r.waiting.reject(err),
        ),
      ),
    );
  }

  function flush(): void {
    scheduled = false;
    while (queue.length > 0) {
      // As many as fit in one message, and at least one (a payload alone over the budget still goes).
      let n = 0;
      let bytes = 0;
      while (n < queue.length && n < maxBatch && (n === 0 || bytes + queue[n]!.bytes <= maxBatchBytes)) {
        bytes += queue[n]!.bytes;
        n += 1;
      }
      const batch = queue.slice(0, n);
      queue = queue.slice(n);
      void run(batch).catch((err: unknown) => {
        // run settles every write itself; this only guards against a bug leaving a caller without an answer.
        log.error({ err }, 'ledger batch failed');
        for (const w of batch) w.reject(err);
      });
    }
  }

  return {
    /** Records one write; resolves with its ledger receipt once its rows and events are committed. */
    record(write: LedgerWrite<R>, caller: HandlerContext): Promise<TxReceipt> {
      return new Promise<TxReceipt>((resolve, reject) => {
        queue.push({ write, bytes: payloadBytes(write.payload), caller, resolve, reject });
        if (!scheduled) {
          scheduled = true;
          // Writes arriving in the same turn of the event loop (one read from the bus) share the batch.
          setImmediate(flush);
        }
      });
    },
  };
}

/** A ledger recorder, as `createLedgerRecorder` makes it. */
export type LedgerRecorder<R> = ReturnType<typeof createLedgerRecorder<R>>;
