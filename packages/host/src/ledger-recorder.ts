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
import {
  anyOfTexts,
  type Db,
  executeRows,
  insertFromJson,
  type LedgerIntentsTable,
  type Outbox,
  type PendingEvent,
} from '@rootline/db';
import { and, asc, count, inArray, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import { intervalLeft } from './batcher.js';
import { call } from './client.js';
import { type Clock, systemClock } from './clock.js';
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

/** Default `intervalMs` of a ledger recorder: a tenth of the default block interval under load (ADR 021). */
export const LEDGER_BATCH_INTERVAL_MS = 10;

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

/** Counts of a recorder's intents, for `<service>.ops.status`. */
export interface LedgerIntentCounts {
  /** Writes not finished yet (in flight, or waiting for the recovery sweep). */
  pending: number;
  /** Writes given up after `maxAttempts` failed stores: their transaction is on the ledger without its rows. */
  failed: number;
}

/** A pending event as an intent row keeps it: the subject, the payload and the call context (no logger). */
interface StoredEvent {
  subject: string;
  payload: unknown;
  ctx: CallContext;
}

function storedEvent(e: PendingEvent): StoredEvent {
  const { requestId, actor, traceparent } = e.ctx;
  return {
    subject: e.def.subject,
    payload: e.payload,
    ctx: { requestId, ...(actor ? { actor } : {}), ...(traceparent ? { traceparent } : {}) },
  };
}

function pendingOf(e: StoredEvent): PendingEvent {
  // The outbox reads only the subject of an event's declaration.
  return { def: { subject: e.subject } as PendingEvent['def'], payload: e.payload as never, ctx: e.ctx };
}

/** PostgreSQL's unique violation, raw or wrapped by drizzle (`cause`). */
function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: unknown; cause?: { code?: unknown } } | undefined;
  return e?.code === '23505' || e?.cause?.code === '23505';
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 500);

/**
 * Records writes that must be on the ledger, in batches (group commit). Writes that arrive in the same turn of
 * the event loop share one ledger message (`chain.tx.submit-batch`) and, once their blocks are known, one
 * database statement writing their rows (`store`) and events. A lone write is a batch of one. A batch holds at
 * most TX_BATCH_MAX writes and MAX_BATCH_PAYLOAD_BYTES of payloads; batches run concurrently.
 *
 * Order of writes: the ledger first, then the rows, so a stored record always has its block; a write is
 * acknowledged only after its rows commit. If the batch's statement fails, each write is retried in a statement
 * of its own, so one bad row cannot fail the others.
 *
 * With an intents table, no ledger transaction is left without its record: before submitting, the batch's
 * intents (everything needed to finish each write) are inserted in one statement; the statement that stores
 * the rows and events deletes them. An intent left behind (the process died between mining and storing, the
 * ledger did not answer, or the store failed) is finished by the recovery sweep (`start`): it resubmits the same
 * transaction id, which the ledger answers with the first receipt, and stores the rows. A write whose store
 * fails `maxAttempts` times is marked failed, logged and counted (`intentCounts`). A retried write (same
 * `txId`) converges on the first one's intent.
 *
 * For ordinary CRUD (no ledger) use one `db.transaction` with the repository and `outbox.enqueue` instead.
 */
export function createLedgerRecorder<R>(opts: LedgerRecorderOptions<R>) {
  const { db, bus, outbox, log, intents } = opts;
  const clock = opts.clock ?? systemClock;
  const maxBatch = Math.min(opts.maxBatch ?? TX_BATCH_MAX, TX_BATCH_MAX);
  const maxBatchBytes = opts.maxBatchBytes ?? MAX_BATCH_PAYLOAD_BYTES;
  const recoverAfterMs = opts.recoverAfterMs ?? 30_000;
  const sweepMs = opts.sweepMs ?? 5000;
  const maxAttempts = opts.maxAttempts ?? 5;
  const intervalMs = opts.intervalMs ?? LEDGER_BATCH_INTERVAL_MS;
  let queue: Waiting<R>[] = [];
  let scheduled = false;
  /** Set while a flush waits for the interval: a full batch clears it and flushes at once. */
  let intervalTimer: NodeJS.Timeout | undefined;
  /** When (performance.now()) the queue was last flushed; never: long ago. */
  let flushedAt = Number.NEGATIVE_INFINITY;
  let timer: NodeJS.Timeout | undefined;
  let sweeping: Promise<number> | undefined;

  /** The context of a batch's ledger call: its caller's for a batch of one, otherwise a request of its own. */
  function batchContext(batch: readonly Waiting<R>[]): CallContext {
    if (batch.length === 1) return batch[0]!.caller;
    const requestId = newId('req');
    if (log.isLevelEnabled('debug')) {
      log.debug({ batch: requestId, requests: batch.map((w) => w.caller.requestId) }, 'writes recorded as one batch');
    }
    return { requestId };
  }

  /**
   * Writes the intents of a batch before its submission. A write whose transaction id has an intent already (a
   * retry) takes over that intent's content, so the retry finishes exactly what the first attempt started.
   */
  async function writeIntents(table: LedgerIntentsTable, batch: readonly Waiting<R>[]): Promise<void> {
    const all = batch.filter((w) => !w.recovering);
    if (all.length === 0) return;
    // Writes of one transaction id in the same batch (concurrent requests for one record): the first is the
    // write, the others take its content over, as a retry would, so the ledger and the rows hold one content.
    const firstOf = new Map<string, Waiting<R>>();
    const fresh: Waiting<R>[] = [];
    const followers: [Waiting<R>, Waiting<R>][] = [];
    for (const w of all) {
      const first = w.write.txId === undefined ? undefined : firstOf.get(w.write.txId);
      if (first) followers.push([w, first]);
      else {
        if (w.write.txId !== undefined) firstOf.set(w.write.txId, w);
        fresh.push(w);
      }
    }
    await writeFreshIntents(table, fresh);
    for (const [w, first] of followers) w.write = first.write;
  }

  /** Inserts the intents of writes with distinct transaction ids; a retry takes its first attempt's content. */
  async function writeFreshIntents(table: LedgerIntentsTable, fresh: readonly Waiting<R>[]): Promise<void> {
    const createdAt = clock.now().toISOString();
    const rows = fresh.map(({ write }) => {
      if (!write.txId) throw new Error('a write recorded with intents needs its txId');
      return {
        txId: write.txId,
        txType: write.txType,
        payload: write.payload,
        record: write.record,
        events: write.events.map(storedEvent),
        createdAt,
      };
    });
    const inserted = new Set(
      (
        await executeRows<{ tx_id: string }>(
          db,
          sql`${insertFromJson(table, rows)} on conflict (tx_id) do nothing returning tx_id`,
        )
      ).map((r) => r.tx_id),
    );
    const retried = fresh.filter((w) => !inserted.has(w.write.txId!));
    if (retried.length === 0) return;
    const existing = await db
      .select()
      .from(table)
      .where(
        inArray(
          table.txId,
          retried.map((w) => w.write.txId!),
        ),
      );
    const byId = new Map(existing.map((r) => [r.txId, r]));
    for (const w of retried) {
      const first = byId.get(w.write.txId!);
      if (!first) continue;
      w.write = {
        txId: first.txId,
        txType: first.txType,
        payload: first.payload,
        record: first.record as R,
        events: (first.events as StoredEvent[]).map(pendingOf),
      };
    }
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
    if (intents) {
      const ids = recorded.map((r) => r.receipt.txId);
      changes.push(sql`delete from ${intents} where ${intents.txId} = ${anyOfTexts(ids)}`);
    }
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
        await db
          .execute(sql`delete from ${intents} where ${intents.txId} = ${r.receipt.txId}`)
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
      const [row] = await db
        .update(intents)
        .set({
          attempts: sql`${intents.attempts} + 1`,
          lastError: errorText(err),
          failedAt: sql`case when ${intents.attempts} + 1 >= ${maxAttempts} then ${clock.now().toISOString()}::timestamptz end`,
          claimedUntil: null,
        })
        .where(inArray(intents.txId, [txId]))
        .returning({ attempts: intents.attempts, failedAt: intents.failedAt });
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
        await writeIntents(intents, batch);
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
      await db
        .execute(sql`delete from ${intents} where ${intents.txId} = ${anyOfTexts(refused)}`)
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

  function flush(): void {
    scheduled = false;
    clearTimeout(intervalTimer);
    intervalTimer = undefined;
    flushedAt = performance.now();
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

  function enqueue(waiting: Omit<Waiting<R>, 'bytes'>): void {
    queue.push({ ...waiting, bytes: payloadBytes(waiting.write.payload) });
    if (intervalTimer && queue.length >= maxBatch) {
      flush();
      return;
    }
    if (!scheduled) {
      scheduled = true;
      const wait = intervalLeft(performance.now() - flushedAt, intervalMs);
      // Writes arriving in the same turn of the event loop (one read from the bus) share the batch; under load,
      // so do those arriving until the interval since the previous flush has passed.
      if (wait > 0) intervalTimer = setTimeout(flush, wait);
      else setImmediate(flush);
    }
  }

  /**
   * One pass of the recovery sweep: claims open intents older than `recoverAfterMs` (rows another replica holds
   * are skipped; a claim lasts as long as that age, after which another sweep may take the row over), and
   * records each again. Resolves to the number finished.
   */
  async function sweepOnce(table: LedgerIntentsTable): Promise<number> {
    const now = clock.now().getTime();
    const claimable = db
      .select({ txId: table.txId })
      .from(table)
      .where(
        and(
          isNull(table.failedAt),
          lte(table.createdAt, new Date(now - recoverAfterMs).toISOString()),
          or(isNull(table.claimedUntil), lte(table.claimedUntil, new Date(now).toISOString())),
        ),
      )
      .orderBy(asc(table.createdAt))
      .limit(maxBatch)
      .for('update', { skipLocked: true });
    const claimed = await db
      .update(table)
      .set({ claimedUntil: new Date(now + recoverAfterMs).toISOString() })
      .where(inArray(table.txId, claimable))
      .returning();
    if (claimed.length === 0) return 0;
    log.info({ writes: claimed.length }, 'recovering unfinished ledger writes');
    const settled = await Promise.allSettled(
      claimed.map(
        (row) =>
          new Promise<TxReceipt>((resolve, reject) => {
            enqueue({
              write: {
                txId: row.txId,
                txType: row.txType,
                payload: row.payload,
                record: row.record as R,
                events: (row.events as StoredEvent[]).map(pendingOf),
              },
              recovering: true,
              caller: { requestId: newId('req'), log },
              resolve,
              reject,
            });
          }),
      ),
    );
    const finished = settled.filter((s) => s.status === 'fulfilled').length;
    if (finished < claimed.length) {
      log.warn({ finished, left: claimed.length - finished }, 'some ledger writes are still unfinished');
    }
    return finished;
  }

  return {
    /** Records one write; resolves with its ledger receipt once its rows and events are committed. */
    record(write: LedgerWrite<R>, caller: HandlerContext): Promise<TxReceipt> {
      return new Promise<TxReceipt>((resolve, reject) => {
        enqueue({ write, caller, resolve, reject });
      });
    },

    /** Runs the recovery sweep once now (at most one at a time); resolves to the number of writes finished. */
    recover(): Promise<number> {
      if (!intents) return Promise.resolve(0);
      sweeping ??= sweepOnce(intents)
        .catch((err: unknown) => {
          log.warn({ err }, 'ledger recovery sweep failed');
          return 0;
        })
        .finally(() => {
          sweeping = undefined;
        });
      return sweeping;
    },

    /** Starts the recovery sweep: once now, then every `sweepMs`. */
    start(): void {
      if (!intents || timer) return;
      void this.recover();
      timer = setInterval(() => void this.recover(), sweepMs);
      timer.unref();
    },

    /** Stops the recovery sweep and waits for a pass in flight. */
    async stop(): Promise<void> {
      clearInterval(timer);
      timer = undefined;
      await sweeping;
    },

    /** Whether a write of this transaction id was started and is not finished (its intent exists). */
    async hasIntent(txId: string): Promise<boolean> {
      if (!intents) return false;
      const rows = await db
        .select({ txId: intents.txId })
        .from(intents)
        .where(inArray(intents.txId, [txId]));
      return rows.length > 0;
    },

    /** How many writes are pending and how many were given up (both 0 without an intents table). */
    async intentCounts(): Promise<LedgerIntentCounts> {
      if (!intents) return { pending: 0, failed: 0 };
      const [row] = await db.select({ all: count(), failed: count(intents.failedAt) }).from(intents);
      return { pending: (row?.all ?? 0) - (row?.failed ?? 0), failed: row?.failed ?? 0 };
    },
  };
}

/** A ledger recorder, as `createLedgerRecorder` makes it. */
export type LedgerRecorder<R> = ReturnType<typeof createLedgerRecorder<R>>;
