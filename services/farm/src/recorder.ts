import type { Bus } from '@rootline/bus';
import { type Db, insertFromJson, type Outbox } from '@rootline/db';
import { type Clock, createLedgerRecorder, type LedgerRecorder, type Logger } from '@rootline/host';
import { harvestedUpdate } from './db/batches.repo.js';
import { harvests, ledgerIntents } from './db/schema.js';

/** A harvest ready to be stored once its block is known: its row without the block fields. */
export interface HarvestRecord {
  row: Omit<typeof harvests.$inferInsert, 'blockIndex' | 'blockHash' | 'txId'>;
}

/**
 * The farm's ledger recorder (`createLedgerRecorder`, docs/ledger-writes.md): a recorded harvest is stored as its
 * row (unique on the harvest id and on the batch) and the update that completes its batch, with its events.
 */
export function createHarvestRecorder(deps: {
  db: Db;
  bus: Bus;
  outbox: Outbox;
  log: Logger;
  clock: Clock;
  recoverAfterMs: number;
}) {
  return createLedgerRecorder<HarvestRecord>({
    ...deps,
    intents: ledgerIntents,
    sweepMs: Math.min(5000, deps.recoverAfterMs),
    store: (recorded) => [
      insertFromJson(
        harvests,
        recorded.map(({ record, receipt }) => ({
          ...record.row,
          blockIndex: receipt.blockIndex,
          blockHash: receipt.blockHash,
          txId: receipt.txId,
        })),
      ),
      harvestedUpdate(
        recorded.map(({ record }) => ({ batchId: record.row.batchId, harvestedAt: record.row.harvestedAt })),
      ),
    ],
  });
}

export type HarvestRecorder = LedgerRecorder<HarvestRecord>;
