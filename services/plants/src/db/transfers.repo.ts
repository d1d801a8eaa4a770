import type {
  OwnershipChange,
  OwnershipTransfer,
  TransferStatus,
  TransferSubjectType,
  TxReceipt,
} from '@rootline/contracts';
import type { Db } from '@rootline/db';
import { insertFromJson } from '@rootline/db';
import { and, asc, count, desc, eq, or, type SQL, sql } from 'drizzle-orm';
import { ownershipRecords, ownershipTransfers, plants, seedLots } from './schema.js';

export type TransferRow = typeof ownershipTransfers.$inferSelect;
type RecordRow = typeof ownershipRecords.$inferSelect;

/** An accepted transfer about to be stored with its block: its ownership record and the record's new owner. */
export interface AcceptedTransfer {
  record: Omit<RecordRow, 'blockIndex' | 'blockHash' | 'txId'>;
  /** Who accepted, by account id (the transfer row's `decidedBy`). */
  decidedBy: string;
  /** A plant's owner search text for the new owner's name (domain/search.ts); null for a seed lot. */
  searchOwner: string | null;
}

/**
 * The statements that store an accepted transfer: its ownership record (the transfer id is the unique key, so a
 * second store fails), the transfer's status and the owner of the plant or seed lot, all in the recorder's one
 * transaction.
 */
export function acceptedTransferChanges(t: AcceptedTransfer, receipt: TxReceipt): SQL[] {
  const r = t.record;
  return [
    insertFromJson(ownershipRecords, [
      { ...r, blockIndex: receipt.blockIndex, blockHash: receipt.blockHash, txId: receipt.txId },
    ]),
    sql`update ${ownershipTransfers} set status = 'accepted', accepted_by = ${JSON.stringify(r.acceptedBy)}::jsonb,
      decided_by = ${t.decidedBy}, decided_at = ${r.recordedAt}::timestamptz
      where ${ownershipTransfers.id} = ${r.transferId}`,
    r.subjectType === 'seed-lot'
      ? sql`update ${seedLots} set owner_id = ${r.toId}, updated_at = ${r.recordedAt}::timestamptz
        where ${seedLots.id} = ${r.subjectId}`
      : sql`update ${plants} set owner_id = ${r.toId}, owner_name = ${r.toName}, owner_name_stated_by = null,
        search_owner = ${t.searchOwner} where ${plants.id} = ${r.subjectId}`,
  ];
}

const withRecord = {
  transfer: ownershipTransfers,
  blockIndex: ownershipRecords.blockIndex,
  blockHash: ownershipRecords.blockHash,
  txId: ownershipRecords.txId,
};

type Joined = { transfer: TransferRow; blockIndex: number | null; blockHash: string | null; txId: string | null };

const iso = (t: string | null) => (t === null ? null : new Date(t).toISOString());

function toTransfer(j: Joined): OwnershipTransfer {
  const t = j.transfer;
  return {
    id: t.id,
    subjectType: t.subjectType as TransferSubjectType,
    subjectId: t.subjectId,
    subjectName: t.subjectName,
    status: t.status as TransferStatus,
    from: { id: t.fromId, name: t.fromName },
    to: { id: t.toId, name: t.toName },
    message: t.message,
    givenBy: t.givenBy,
    acceptedBy: t.acceptedBy ?? null,
    decidedBy: t.decidedBy,
    createdAt: new Date(t.createdAt).toISOString(),
    decidedAt: iso(t.decidedAt),
    block:
      j.blockIndex !== null && j.blockHash !== null && j.txId !== null
        ? { index: j.blockIndex, hash: j.blockHash, txId: j.txId }
        : null,
  };
}

/** Stores a new pending transfer; undefined when the record has a pending transfer already (the unique index). */
export async function insertTransfer(db: Db, row: typeof ownershipTransfers.$inferInsert): Promise<boolean> {
  const inserted = await db
    .insert(ownershipTransfers)
    .values(row)
    .onConflictDoNothing()
    .returning({ id: ownershipTransfers.id });
  return inserted.length > 0;
}

/** A transfer with its block when accepted, or undefined. */
export async function findTransfer(db: Db, id: string): Promise<OwnershipTransfer | undefined> {
  const [j] = await db
    .select(withRecord)
    .from(ownershipTransfers)
    .leftJoin(ownershipRecords, eq(ownershipRecords.transferId, ownershipTransfers.id))
    .where(eq(ownershipTransfers.id, id))
    .limit(1);
  return j ? toTransfer(j) : undefined;
}

/** The pending transfer of a record, if any. */
export async function pendingTransferOf(db: Db, subjectType: string, subjectId: string): Promise<string | undefined> {
  const [r] = await db
    .select({ id: ownershipTransfers.id })
    .from(ownershipTransfers)
    .where(
      and(
        eq(ownershipTransfers.subjectType, subjectType),
        eq(ownershipTransfers.subjectId, subjectId),
        eq(ownershipTransfers.status, 'pending'),
      ),
    )
    .limit(1);
  return r?.id;
}

/** Locks a transfer's row for a state change (accept, decline, cancel) in `tx`. */
export async function lockTransfer(tx: Db, id: string): Promise<TransferRow | undefined> {
  const [r] = await tx.select().from(ownershipTransfers).where(eq(ownershipTransfers.id, id)).for('update');
  return r;
}

/** Closes a pending transfer (declined or cancelled) by `by` at `at`. */
export async function closeTransfer(
  tx: Db,
  id: string,
  status: 'declined' | 'cancelled',
  by: string,
  at: string,
): Promise<void> {
  await tx
    .update(ownershipTransfers)
    .set({ status, decidedBy: by, decidedAt: at })
    .where(and(eq(ownershipTransfers.id, id), eq(ownershipTransfers.status, 'pending')));
}

/** A page of the transfers to or from `partyId` (newest first, ties by id) and how many there are. */
export async function listTransfers(
  db: Db,
  f: { partyId: string; direction?: 'incoming' | 'outgoing'; status?: string; subjectId?: string },
  offset: number,
  limit: number,
): Promise<{ items: OwnershipTransfer[]; total: number }> {
  const side =
    f.direction === 'incoming'
      ? eq(ownershipTransfers.toId, f.partyId)
      : f.direction === 'outgoing'
        ? eq(ownershipTransfers.fromId, f.partyId)
        : or(eq(ownershipTransfers.toId, f.partyId), eq(ownershipTransfers.fromId, f.partyId));
  const where = and(
    side,
    f.status ? eq(ownershipTransfers.status, f.status) : undefined,
    f.subjectId ? eq(ownershipTransfers.subjectId, f.subjectId) : undefined,
  );
  const [rows, counted] = await Promise.all([
    db
      .select(withRecord)
      .from(ownershipTransfers)
      .leftJoin(ownershipRecords, eq(ownershipRecords.transferId, ownershipTransfers.id))
      .where(where)
      .orderBy(desc(ownershipTransfers.createdAt), desc(ownershipTransfers.id))
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(ownershipTransfers).where(where),
  ]);
  return { items: rows.map(toTransfer), total: Number(counted[0]?.total ?? 0) };
}

/** A record's accepted transfers as the ledger recorded them, oldest first. */
export async function ownershipHistory(db: Db, subjectType: string, subjectId: string): Promise<OwnershipChange[]> {
  const rows = await db
    .select()
    .from(ownershipRecords)
    .where(and(eq(ownershipRecords.subjectType, subjectType), eq(ownershipRecords.subjectId, subjectId)))
    .orderBy(asc(ownershipRecords.recordedAt), asc(ownershipRecords.transferId));
  return rows.map((r) => ({
    transferId: r.transferId,
    from: { id: r.fromId, name: r.fromName },
    to: { id: r.toId, name: r.toName },
    givenBy: r.givenBy,
    acceptedBy: r.acceptedBy,
    at: new Date(r.recordedAt).toISOString(),
    block: { index: r.blockIndex, hash: r.blockHash, txId: r.txId },
  }));
}
