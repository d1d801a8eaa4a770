import { type LedgerRecorder, type LedgerWrite, serviceLedger } from '@rootline/host';
import { type AnonymousOwnerRow, anonymousOwnersInsert, type PlantRow, plantsInsert } from './plants.repo.js';
import { type RemoteParentRow, remoteParentsInsert } from './remote-parents.repo.js';
import { ledgerIntents } from './schema.js';
import { type AcceptedTransfer, acceptedTransferChanges } from './transfers.repo.js';

/** What is stored for a plant once its block is known. */
export interface PlantRecord {
  /** The plant's row without its block fields, which come from the receipt. */
  row: Omit<PlantRow, 'blockIndex' | 'blockHash' | 'txId'>;
  /** The owner row of an anonymous registration, stored in the same statement. */
  anonymousOwner?: AnonymousOwnerRow;
  /** The verified link to a parent on another node (ADR 308), stored in the same statement. */
  remoteParent?: RemoteParentRow;
}

/** What is stored for an accepted ownership transfer once its block is known (`ownership.transfer`). */
export interface TransferRecord {
  transfer: AcceptedTransfer;
}

/** Everything the plants' ledger records: plants, and the transfers of their ownership. */
export type PlantsLedgerRecord = PlantRecord | TransferRecord;

/** A plant ready to be recorded: its ledger transaction (`plant.register` or `plant.clone`), row and events. */
export type PlantWrite = LedgerWrite<PlantRecord>;

const isTransfer = (r: PlantsLedgerRecord): r is TransferRecord => 'transfer' in r;

/**
 * The plants' ledger (docs/ledger-writes.md), with its intents in `plants.ledger_intents`: a batch of recorded
 * plants is stored as one INSERT of their anonymous owners and one of their rows, the plant id being the unique key;
 * an accepted transfer as the INSERT of its ownership record (the transfer id being the unique key), the transfer's
 * new status and the plant's new owner.
 */
export const plantsLedger = serviceLedger<PlantsLedgerRecord>({
  intents: ledgerIntents,
  store: (recorded) => {
    const plantsRecorded = recorded.flatMap(({ record, receipt }) => (isTransfer(record) ? [] : [{ record, receipt }]));
    const owners = plantsRecorded.flatMap((r) => (r.record.anonymousOwner ? [r.record.anonymousOwner] : []));
    const rows = plantsRecorded.map(({ record, receipt }) => ({
      ...record.row,
      blockIndex: receipt.blockIndex,
      blockHash: receipt.blockHash,
      txId: receipt.txId,
    }));
    const links = plantsRecorded.flatMap((r) => (r.record.remoteParent ? [r.record.remoteParent] : []));
    const transfers = recorded.flatMap(({ record, receipt }) =>
      isTransfer(record) ? acceptedTransferChanges(record.transfer, receipt) : [],
    );
    return [
      ...(owners.length > 0 ? [anonymousOwnersInsert(owners)] : []),
      ...(rows.length > 0 ? [plantsInsert(rows)] : []),
      ...(links.length > 0 ? [remoteParentsInsert(links)] : []),
      ...transfers,
    ];
  },
});

export type Recorder = LedgerRecorder<PlantsLedgerRecord>;
