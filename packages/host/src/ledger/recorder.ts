import type { Bus } from '@rootline/bus';
import {
  AppError,
  type CallContext,
  chainTxSubmitBatch,
  isAppError,
  newId,
  TX_BATCH_MAX,
  type TxBatchResult,
  type TxReceipt,
} from '@rootline/contracts';
import type { Db, LedgerIntentsTable, Outbox } from '@rootline/db';
import type { SQL } from 'drizzle-orm';
import { call } from '../client.js';
import { type Clock, systemClock } from '../clock.js';
import type { HandlerContext } from '../handler-context.js';
import type { Logger } from '../logger.js';
import { createWriteQueue } from './batcher.js';
import { type LedgerIntentStore, ledgerIntentStore } from './intents.js';
import { createRecoverySweep } from './sweep.js';
import {
  LEDGER_BATCH_INTERVAL_MS,
  LEDGER_RETRY_AFTER_SECONDS,
  type LedgerIntentCounts,
  type LedgerWrite,
  ledgerError,
  MAX_BATCH_PAYLOAD_BYTES,
  payloadBytes,
  type Recorded,
} from './write.js';

interface Waiting<R> {
  write: LedgerWrite<R>;
  /** Taken from its intent row by the recovery sweep: the row exists already. */
  recovering?: boolean;
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
  /**
   * The service's intents table (`ledgerIntentsTable`). With it every write needs a `txId` and a JSON record,
   * and no transaction reaches the ledger without a durable intent to finish it (see `createLedgerRecorder`).
   */
  intents?: LedgerIntentsTable;
  clock?: Clock;
  /** An intent this old is finished by the recovery sweep (default 30 s; keep it above the request timeout). */
  recoverAfterMs?: number;
  /** How often the recovery sweep runs once started (default 5 s). */
  sweepMs?: number;
  /** Failed stores of one write before its intent is marked failed (default 5). */
  maxAttempts?: number;
  maxBatch?: number;
  maxBatchBytes?: number;
  /**
   * Under load, the shortest time between two flushes of the queue (default `LEDGER_BATCH_INTERVAL_MS`), unless a
   * full batch is waiting. A write after a quiet spell goes at once; under load, writes gather for up to this long,
   * so each batch's intent INSERT, ledger message and store statement carry more writes. Small beside the block
   * interval the writes wait for anyway.
   */
  intervalMs?: number;
}

/** PostgreSQL's unique violation, raw or wrapped by drizzle (`cause`). */
function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: unknown; cause?: { code?: unknown } } | undefined;
  return e?.code === '23505' || e?.cause?.code === '23505';
}

/**
 * Records writes that must be on the ledger, in batches (group commit). Writes that arrive in the same turn of
 * the event loop share one ledger message (`chain.tx.submit-batch`) and, once their blocks are known, one
 * database statement writing their rows (`store`) and events. A lone write is a batch of one. A batch holds at
 * most TX_BATCH_MAX writes and MAX_BATCH_PAYLOAD_BYTES of payloads; batches run concurrently (`batcher.ts`).
 *
 * Order of writes: the ledger first, then the rows, so a stored record always has its block; a write is
 * acknowledged only after its rows commit. If the batch's statement fails, each write is retried in a statement
 * of its own, so one bad row cannot fail the others.
 *
 * With an intents table, no ledger transaction is left without its record: before submitting, the batch's
 * intents (everything needed to finish each write, `intents.ts`) are inserted in one statement; the statement
 * that stores the rows and events deletes them. An intent left behind (the process died between mining and
 * storing, the ledger did not answer, or the store failed) is finished by the recovery sweep (`start`,
 * `sweep.ts`): it resubmits the same transaction id, which the ledger answers with the first receipt, and stores
 * the rows. A write whose store fails `maxAttempts` times is marked failed, logged and counted (`intentCounts`).
 * A retried write (same `txId`) converges on the first one's intent.
 *
 * A service normally declares its ledger (`ServiceModule.ledger`) and the host builds this recorder for it. For
 * ordinary CRUD (no ledger) use one `db.transaction` with the repository and `outbox.enqueue` instead.
 */
export function createLedgerRecorder<R>(opts: LedgerRecorderOptions<R>) {
  const { db, bus, outbox, log } = opts;
  const clock = opts.clock ?? systemClock;
  const maxBatch = Math.min(opts.maxBatch ?? TX_BATCH_MAX, TX_BATCH_MAX);
  const maxAttempts = opts.maxAttempts ?? 5;
  const intents: LedgerIntentStore | undefined = opts.intents ? ledgerIntentStore(db, opts.intents, clock) : undefined;

  /** The context of a batch's ledger call: its caller's for a batch of one, otherwise a request of its own. */
  function batchContext(batch: readonly Waiting<R>[]): CallContext {
    if (batch.length === 1) return batch[0]!.caller;
    const requestId = newId('req', clock.now().getTime());
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
    const changes = opts.store(recorded);
    if (intents) changes.push(intents.deleteStatement(recorded.map((r) => r.receipt.txId)));
    await outbox.commitWith(
      db,
      changes,
      recorded.flatMap((r) => r.waiting.write.events),
    );
  }

  /**
   * After a write's own statement failed: stored already (the unique key derived from the record's id refused
   * the second copy), or a failed attempt counted on its intent, marked failed after `maxAttempts`.
   *
   * Stored already happens when a retry of a write (same transaction id) races its first attempt: the retry may
   * find the record not yet stored, write its intent again after the first attempt deleted it, and get the same
   * receipt from the ledger. The write is done: its intent goes and the caller gets the receipt.
   */
  async function storeFailed(r: Recorded<R> & { waiting: Waiting<R> }, err: unknown): Promise<void> {
    if (isUniqueViolation(err)) {
      if (intents) {
        await intents
          .delete([r.receipt.txId])
          .catch((e: unknown) => log.warn({ err: e }, 'could not delete the intent of a write stored already'));
      }
      r.waiting.resolve(r.receipt);
      return;
    }
    if (!intents) {
      r.waiting.reject(err);
      return;
    }
    try {
      const txId = r.receipt.txId;
      const row = await intents.countFailure(txId, err, maxAttempts);
      if (!row) {
        r.waiting.resolve(r.receipt);
        return;
      }
      if (row.failedAt) {
        log.error(
          { err, txId, attempts: row.attempts },
          'ledger write given up: its transaction is on the ledger but its rows could not be stored',
        );
      } else {
        log.warn({ err, txId, attempts: row.attempts }, 'ledger write not stored; the recovery sweep retries it');
      }
    } catch (markErr) {
      log.error({ err: markErr }, 'could not count a failed store on its intent');
    }
    r.waiting.reject(err);
  }

  async function run(batch: Waiting<R>[]): Promise<void> {
    if (intents) {
      try {
        await intents.write(batch);
      } catch (err) {
        // Nothing was submitted: the write can be retried as a whole.
        log.error({ err, writes: batch.length }, 'could not write ledger intents');
        const error = new AppError('UNAVAILABLE', 'The write could not be started; retry shortly', {
          retryAfterSeconds: LEDGER_RETRY_AFTER_SECONDS,
        });
        for (const w of batch) w.reject(error);
        return;
      }
    }
    const results = await submit(batch);
    const recorded: (Recorded<R> & { waiting: Waiting<R> })[] = [];
    const refused: string[] = [];
    results.forEach((result, i) => {
      const waiting = batch[i]!;
      if (result.ok) {
        recorded.push({ waiting, record: waiting.write.record, receipt: result.receipt });
        return;
      }
      // A payload the ledger refuses can never be recorded: its intent goes. Any other failure may have left
      // the transaction recorded (or about to be): the intent stays for the recovery sweep.
      if (result.error.code === 'VALIDATION_ERROR' && waiting.write.txId) refused.push(waiting.write.txId);
      waiting.reject(ledgerError(result.error));
    });
    if (intents && refused.length > 0) {
      await intents
        .delete(refused)
        .catch((err: unknown) => log.warn({ err }, 'could not delete the intents of refused writes'));
    }
    if (recorded.length === 0) return;
    try {
      await commit(recorded);
      for (const r of recorded) r.waiting.resolve(r.receipt);
      return;
    } catch (err) {
      if (recorded.length === 1) {
        await storeFailed(recorded[0]!, err);
        return;
      }
      log.warn({ err, writes: recorded.length }, 'batch insert failed; storing its writes one by one');
    }
    await Promise.all(
      recorded.map((r) =>
        commit([r]).then(
          () => r.waiting.resolve(r.receipt),
          (err: unknown) => storeFailed(r, err),
        ),
      ),
    );
  }

  const queue = createWriteQueue<Waiting<R>>({
    maxBatch,
    maxBatchBytes: opts.maxBatchBytes ?? MAX_BATCH_PAYLOAD_BYTES,
    intervalMs: opts.intervalMs ?? LEDGER_BATCH_INTERVAL_MS,
    log,
    run,
    fail: (batch, err) => {
      for (const w of batch) w.reject(err);
    },
  });

  function enqueue(waiting: Omit<Waiting<R>, 'bytes' | 'resolve' | 'reject'>): Promise<TxReceipt> {
    return new Promise<TxReceipt>((resolve, reject) => {
      queue.enqueue({ ...waiting, resolve, reject, bytes: payloadBytes(waiting.write.payload) });
    });
  }

  const sweep = intents
    ? createRecoverySweep<R>({
        intents,
        log,
        recoverAfterMs: opts.recoverAfterMs ?? 30_000,
        sweepMs: opts.sweepMs ?? 5000,
        maxBatch,
        rerecord: (write) =>
          enqueue({
            write,
            recovering: true,
            caller: { requestId: newId('req', clock.now().getTime()), log },
          }),
      })
    : undefined;

  return {
    /** Age at which an unfinished write is finished by the recovery sweep. */
    recoverAfterMs: opts.recoverAfterMs ?? 30_000,

    /** Records one write; resolves with its ledger receipt once its rows and events are committed. */
    record(write: LedgerWrite<R>, caller: HandlerContext): Promise<TxReceipt> {
      return enqueue({ write, caller });
    },

    /**
     * Writes the intent of a write inside the caller's transaction (the recorder must have an intents table), so
     * that a state change deciding the write and its claim on the ledger commit together: whoever checks the state
     * afterwards sees the write as started (`hasIntent`). Returns the write as its intent holds it (a retry, or a
     * concurrent request for the same transaction id, gets the first content) and whether this call wrote it.
     * Record it afterwards with `recordIntended`.
     */
    intend(tx: Db, write: LedgerWrite<R>): Promise<{ write: LedgerWrite<R>; fresh: boolean }> {
      if (!intents) throw new Error('intend needs a recorder with an intents table');
      return intents.writeIn(tx, write);
    },

    /**
     * Records a write whose intent `intend` wrote (and its transaction committed); resolves as `record` does. If
     * the process dies before, the recovery sweep finishes it from its intent.
     */
    recordIntended(write: LedgerWrite<R>, caller: HandlerContext): Promise<TxReceipt> {
      return enqueue({ write, caller, recovering: true });
    },

    /** Runs the recovery sweep once now (at most one at a time); resolves to the number of writes finished. */
    recover(): Promise<number> {
      return sweep ? sweep.recover() : Promise.resolve(0);
    },

    /** Starts the recovery sweep: once now, then every `sweepMs`. */
    start(): void {
      sweep?.start();
    },

    /** Stops the recovery sweep and waits for a pass in flight. */
    async stop(): Promise<void> {
      await sweep?.stop();
    },

    /**
     * Whether a write of this transaction id was started and is not finished (its intent exists), read on `on`
     * when given (a transaction holding a lock that `intend`'s transaction takes too).
     */
    async hasIntent(txId: string, on?: Db): Promise<boolean> {
      if (!intents) return false;
      return on ? intents.hasIn(on, txId) : intents.has(txId);
    },

    /** How many writes are pending and how many were given up (both 0 without an intents table). */
    async intentCounts(): Promise<LedgerIntentCounts> {
      return intents ? intents.counts() : { pending: 0, failed: 0 };
    },
  };
}

/** A ledger recorder, as `createLedgerRecorder` makes it. */
export type LedgerRecorder<R> = ReturnType<typeof createLedgerRecorder<R>>;
