import { insertFromJson } from '@rootline/db';
import { type LedgerRecorder, serviceLedger } from '@rootline/host';
import { harvestedUpdate } from './batches.repo.js';
import { harvests, ledgerIntents } from './schema.js';

/** A harvest ready to be stored once its block is known: its row without the block fields. */
export interface HarvestRecord {
  row: Omit<typeof harvests.$inferInsert, 'blockIndex' | 'blockHash' | 'txId'>;
}

/**
 * The farm's ledger (docs/ledger-writes.md): a recorded harvest is stored as its row (unique on the harvest id and
 * on the batch) and the update that completes its batch, with its events.
 */
export const farmLedger = serviceLedger<HarvestRecord>({
  intents: ledgerIntents,
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

export type HarvestRecorder = LedgerRecorder<HarvestRecord>;
