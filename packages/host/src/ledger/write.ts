import { AppError, type ErrorBody, type ErrorDetails, type TxReceipt } from '@rootline/contracts';
import type { PendingEvent } from '@rootline/db';

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

/** Counts of a recorder's intents, for `<service>.ops.status`. */
export interface LedgerIntentCounts {
  /** Writes not finished yet (in flight, or waiting for the recovery sweep). */
  pending: number;
  /** Writes given up after `maxAttempts` failed stores: their transaction is on the ledger without its rows. */
  failed: number;
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
export function payloadBytes(payload: unknown): number {
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
  if (code === 'CHAIN_ERROR' || code === 'VALIDATION_ERROR')
    return new AppError('CHAIN_ERROR', message, details as ErrorDetails | undefined);
  return new AppError('CHAIN_ERROR', 'The ledger could not record the write', { cause: code });
}
