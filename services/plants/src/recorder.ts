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
import { call, type HandlerContext, type Logger } from '@rootline/host';
import { type AnonymousOwnerRow, anonymousOwnersInsert, type PlantRow, plantsInsert } from './db/plants.repo.js';

/** A plant ready to be recorded: its ledger transaction, and what is stored once its block is known. */
export interface PlantWrite {
  txType: 'plant.register' | 'plant.clone';
  payload: Record<string, unknown>;
  /** The plant's row without its block fields, which come from the receipt. */
  row: Omit<PlantRow, 'blockIndex' | 'blockHash' | 'txId'>;
  /** Events committed with the row, in order. */
  events: PendingEvent[];
  /** The owner row of an anonymous registration, stored in the same transaction. */
  anonymousOwner?: AnonymousOwnerRow;
}

/**
 * Most bytes of ledger payloads in one batch message: well under NATS's default message limit of 1 MiB, with
 * room for the request's envelope and headers, however long the plants' texts are.
 */
export const MAX_BATCH_PAYLOAD_BYTES = 256 * 1024;

/** An upper bound of a payload's size on the wire: JSON text, at most 3 UTF-8 bytes per UTF-16 unit. */
function payloadBytes(payload: unknown): number {
  return JSON.stringify(payload).length * 3;
}

interface Waiting {
  write: PlantWrite;
  /** Upper bound of its payload's bytes in the batch message. */
  bytes: number;
  caller: HandlerContext;
  resolve: (receipt: TxReceipt) => void;
  reject: (err: unknown) => void;
}

interface Recorded {
  waiting: Waiting;
  receipt: TxReceipt;
}

/** A failed ledger submission as the caller sees it: always CHAIN_ERROR, with the cause when it was another code. */
function chainError({ code, message, details }: ErrorBody): AppError {
  if (code === 'CHAIN_ERROR') return new AppError('CHAIN_ERROR', message, details);
  return new AppError('CHAIN_ERROR', 'The ledger could not record the plant', { cause: code });
}

/**
 * Records new plants in batches (group commit). Plants that arrive in the same turn of the event loop share one
 * ledger message (`chain.tx.submit-batch`: their transactions join the next block like any other) and, once
 * their blocks are stored, one database statement writing their rows and events. Under load this turns a
 * message, a transaction and a commit per plant into one per batch; a lone plant is a batch of one and waits no
 * longer than before. A batch holds at most TX_BATCH_MAX plants and MAX_BATCH_PAYLOAD_BYTES of ledger payloads.
 * Batches run concurrently: a new one does not wait for the previous block.
 *
 * Order of writes: the ledger first, then the rows, so a stored plant always has its block; a plant is
 * acknowledged only after its row commits, so an acknowledged plant is never lost. If the batch's statement
 * fails, each plant is retried in a statement of its own, so one bad row cannot fail the others.
 */
export function createRecorder(deps: {
  db: Db;
  bus: Bus;
  outbox: Outbox;
  log: Logger;
  maxBatch?: number;
  maxBatchBytes?: number;
}) {
  const { db, bus, outbox, log } = deps;
  const maxBatch = Math.min(deps.maxBatch ?? TX_BATCH_MAX, TX_BATCH_MAX);
  const maxBatchBytes = deps.maxBatchBytes ?? MAX_BATCH_PAYLOAD_BYTES;
  let queue: Waiting[] = [];
  let scheduled = false;

  /** The context of a batch's ledger call: its caller's for a batch of one, otherwise a request of its own. */
  function batchContext(batch: readonly Waiting[]): CallContext {
    if (batch.length === 1) return batch[0]!.caller;
    const requestId = newId('req');
    if (log.isLevelEnabled('debug')) {
      log.debug({ batch: requestId, requests: batch.map((w) => w.caller.requestId) }, 'plants recorded as one batch');
    }
    return { requestId };
  }

  async function submit(batch: readonly Waiting[]): Promise<TxBatchResult[]> {
    try {
      const transactions = batch.map((w) => ({ type: w.write.txType, payload: w.write.payload }));
      const { results } = await call(bus, chainTxSubmitBatch, { transactions }, batchContext(batch));
      if (results.length !== batch.length)
        throw new Error(`${results.length} results for ${batch.length} transactions`);
      return results;
    } catch (err) {
      if (isAppError(err)) return batch.map(() => ({ ok: false, error: err.toBody() }));
      log.error({ err, plants: batch.length }, 'ledger submission failed');
      return batch.map(() => ({ ok: false, error: { code: 'INTERNAL', message: 'ledger submission failed' } }));
    }
  }

  /** The rows and events of recorded plants, in one statement (see `outbox.commitWith`). */
  async function store(recorded: readonly Recorded[]): Promise<void> {
    const owners = recorded.flatMap((r) => (r.waiting.write.anonymousOwner ? [r.waiting.write.anonymousOwner] : []));
    const rows = recorded.map(({ waiting, receipt }) => ({
      ...waiting.write.row,
      blockIndex: receipt.blockIndex,
      blockHash: receipt.blockHash,
      txId: receipt.txId,
    }));
    await outbox.commitWith(
      db,
      [...(owners.length > 0 ? [anonymousOwnersInsert(owners)] : []), plantsInsert(rows)],
      recorded.flatMap((r) => r.waiting.write.events),
    );
  }

  async function run(batch: Waiting[]): Promise<void> {
    const results = await submit(batch);
    const recorded: Recorded[] = [];
    results.forEach((result, i) => {
      const waiting = batch[i]!;
      if (result.ok) recorded.push({ waiting, receipt: result.receipt });
      else waiting.reject(chainError(result.error));
    });
    if (recorded.length === 0) return;
    try {
      await store(recorded);
      for (const r of recorded) r.waiting.resolve(r.receipt);
      return;
    } catch (err) {
      if (recorded.length === 1) {
        recorded[0]!.waiting.reject(err);
        return;
      }
      log.warn({ err, plants: recorded.length }, 'batch insert failed; storing its plants one by one');
    }
    await Promise.all(
      recorded.map((r) =>
        store([r]).then(
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
        // run settles every plant itself; this only guards against a bug leaving a caller without an answer.
        log.error({ err }, 'plant batch failed');
        for (const w of batch) w.reject(err);
      });
    }
  }

  return {
    /** Records one plant; resolves with its ledger receipt once its row is committed. */
    record(write: PlantWrite, caller: HandlerContext): Promise<TxReceipt> {
      return new Promise<TxReceipt>((resolve, reject) => {
        queue.push({ write, bytes: payloadBytes(write.payload), caller, resolve, reject });
        if (!scheduled) {
          scheduled = true;
          // Plants arriving in the same turn of the event loop (one read from the bus) share the batch.
          setImmediate(flush);
        }
      });
    },
  };
}

export type Recorder = ReturnType<typeof createRecorder>;
