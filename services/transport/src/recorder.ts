import type { Bus } from '@rootline/bus';
import type { Db, Outbox } from '@rootline/db';
import { type Clock, createLedgerRecorder, type LedgerRecorder, type Logger } from '@rootline/host';
import { eventsInsert, type NewEventRow } from './db/events.repo.js';
import { ledgerIntents } from './db/schema.js';

/** What is stored for a journey event once its block is known: its row without the block fields. */
export interface EventRecord {
  row: Omit<NewEventRow, 'blockIndex' | 'blockHash' | 'txId'>;
}

/**
 * The transport service's ledger recorder (see `createLedgerRecorder` and docs/ledger-writes.md): an event is
 * stored with its block once the ledger has it, with `transport.completed` in the same statement; intents in
 * `transport.ledger_intents` let the recovery sweep finish a write a crash interrupted.
 */
export function createRecorder(deps: {
  db: Db;
  bus: Bus;
  outbox: Outbox;
  log: Logger;
  clock: Clock;
  recoverAfterMs: number;
}) {
  return createLedgerRecorder<EventRecord>({
    ...deps,
    intents: ledgerIntents,
    sweepMs: Math.min(5000, deps.recoverAfterMs),
    store: (recorded) => [
      eventsInsert(
        recorded.map(({ record, receipt }) => ({
          ...record.row,
          blockIndex: receipt.blockIndex,
          blockHash: receipt.blockHash,
          txId: receipt.txId,
        })),
      ),
    ],
  });
}

export type Recorder = LedgerRecorder<EventRecord>;
