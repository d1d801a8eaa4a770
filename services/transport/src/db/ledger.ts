import { type LedgerRecorder, serviceLedger } from '@rootline/host';
import { eventsInsert, type NewEventRow } from './events.repo.js';
import { journeyChanges } from './journey.repo.js';
import { ledgerIntents } from './schema.js';

/** What is stored for a journey event once its block is known: its row without the block fields. */
export interface EventRecord {
  row: Omit<NewEventRow, 'blockIndex' | 'blockHash' | 'txId'>;
}

/**
 * The transport service's ledger (docs/ledger-writes.md): an event is stored with its block once the ledger has it,
 * with `transport.completed` in the same statement; intents in `transport.ledger_intents` let the recovery sweep
 * finish a write a crash interrupted. The same statement keeps the journeys' running totals, seed lots and
 * corrections, and ends the events' time reservations.
 */
export const transportLedger = serviceLedger<EventRecord>({
  intents: ledgerIntents,
  store: (recorded) => {
    const rows = recorded.map(({ record, receipt }) => ({
      ...record.row,
      blockIndex: receipt.blockIndex,
      blockHash: receipt.blockHash,
      txId: receipt.txId,
    }));
    // The insert is change 0, so the journey changes start at index 1.
    return [eventsInsert(rows), ...journeyChanges(rows, 1)];
  },
});

export type Recorder = LedgerRecorder<EventRecord>;
