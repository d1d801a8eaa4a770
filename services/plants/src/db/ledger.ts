import { type LedgerRecorder, type LedgerWrite, serviceLedger } from '@rootline/host';
import { type AnonymousOwnerRow, anonymousOwnersInsert, type PlantRow, plantsInsert } from './plants.repo.js';
import { ledgerIntents } from './schema.js';

/** What is stored for a plant once its block is known. */
export interface PlantRecord {
  /** The plant's row without its block fields, which come from the receipt. */
  row: Omit<PlantRow, 'blockIndex' | 'blockHash' | 'txId'>;
  /** The owner row of an anonymous registration, stored in the same statement. */
  anonymousOwner?: AnonymousOwnerRow;
}

/** A plant ready to be recorded: its ledger transaction (`plant.register` or `plant.clone`), row and events. */
export type PlantWrite = LedgerWrite<PlantRecord>;

/**
 * The plants' ledger (docs/ledger-writes.md), with its intents in `plants.ledger_intents`: a batch of recorded
 * plants is stored as one INSERT of their anonymous owners and one of their rows, the plant id being the unique key.
 */
export const plantsLedger = serviceLedger<PlantRecord>({
  intents: ledgerIntents,
  store: (recorded) => {
    const owners = recorded.flatMap((r) => (r.record.anonymousOwner ? [r.record.anonymousOwner] : []));
    const rows = recorded.map(({ record, receipt }) => ({
      ...record.row,
      blockIndex: receipt.blockIndex,
      blockHash: receipt.blockHash,
      txId: receipt.txId,
    }));
    return [...(owners.length > 0 ? [anonymousOwnersInsert(owners)] : []), plantsInsert(rows)];
  },
});

export type Recorder = LedgerRecorder<PlantRecord>;
