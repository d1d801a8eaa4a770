import {
  AppError,
  type CallContext,
  type OwnershipTransfer,
  paginate,
  plantOwnershipHistory,
  seedLotOwnershipHistory,
  type TransferInput,
  transferAccept,
  transferAccepted,
  transferCancel,
  transferCancelled,
  transferDecline,
  transferDeclined,
  transferGet,
  transferList,
  transferPropose,
  transferProposed,
} from '@rootline/contracts';
import { organizationAudienceGet, partyNameGet } from '@rootline/contracts/organizations';
import { pendingEvent } from '@rootline/db';
import { actingUser } from '@rootline/domain';
import { call, handle, ledgerTxId, notFound, type ServiceContext } from '@rootline/host';
import type { Recorder } from '../db/ledger.js';
import { findPlant } from '../db/plants.repo.js';
import { findSeedLot } from '../db/seed-lots.repo.js';
import {
  closeTransfer,
  findTransfer,
  insertTransfer,
  listTransfers,
  lockTransfer,
  ownershipHistory,
  pendingTransferOf,
  type TransferRow,
} from '../db/transfers.repo.js';
import { searchTexts } from '../domain/search.js';
import { lotName, lotTransferProblem } from '../domain/seed-lots.js';
import { assertSide, listingParty, mayReadTransfer, notPending } from '../domain/transfers.js';

/** The ledger transaction type of an accepted transfer. */
export const OWNERSHIP_TRANSFER_TX = 'ownership.transfer';

/**
 * The accounts to tell of something about a party: the person, or the owners and managers of the organization now
 * (asked of the gateway, which keeps the memberships, before any transaction opens).
 */
async function audienceOf(ctx: ServiceContext, partyId: string, caller: CallContext): Promise<string[]> {
  if (!partyId.startsWith('org_')) return [partyId];
  return (await call(ctx.bus, organizationAudienceGet, { organizationId: partyId }, caller)).accountIds;
}

/** What a transfer gives, as its proposal and its acceptance see it. */
interface Subject {
  id: string;
  /** Its name on the transfer: a plant's common name, a lot's crop, variety and harvest year. */
  name: string;
  ownerId: string;
  /** A plant's recorded owner name; a lot keeps its owner by id alone (its name is asked when proposed). */
  ownerName: string | null;
  /** Why it cannot change owner now (a discarded or empty lot), or null. */
  problem: 'lot-discarded' | 'lot-empty' | null;
}

const LABEL = { plant: 'plant', 'seed-lot': 'seed lot' } as const;

/** The plant or seed lot a transfer names, read in `db` (locked for the transaction when `forUpdate`). */
async function findSubject(
  db: ServiceContext['db'],
  type: TransferInput['subjectType'],
  id: string,
  forUpdate = false,
): Promise<Subject | undefined> {
  if (type === 'seed-lot') {
    const lot = await findSeedLot(db, id, forUpdate);
    return (
      lot && { id: lot.id, name: lotName(lot), ownerId: lot.ownerId, ownerName: null, problem: lotTransferProblem(lot) }
    );
  }
  const plant = await findPlant(db, id);
  return (
    plant && {
      id: plant.id,
      name: plant.commonName,
      ownerId: plant.owner.id,
      ownerName: plant.owner.name,
      problem: null,
    }
  );
}

/** CONFLICT for a lot that cannot change owner (`lot-discarded`, `lot-empty`). */
function unmovable(problem: 'lot-discarded' | 'lot-empty'): AppError {
  return new AppError(
    'CONFLICT',
    problem === 'lot-discarded'
      ? 'The seed lot was discarded: it can no longer be transferred'
      : 'The seed lot has nothing left: there is no seed to transfer',
    { reason: problem },
  );
}

/** The giving side's name: a plant's recorded owner, the organization acted for, else asked of the gateway. */
async function giverName(ctx: ServiceContext, subject: Subject, caller: CallContext): Promise<string> {
  if (subject.ownerName !== null) return subject.ownerName;
  if (caller.actor?.org?.id === subject.ownerId) return caller.actor.org.name;
  return (await call(ctx.bus, partyNameGet, { partyId: subject.ownerId }, caller)).name ?? subject.ownerId;
}

/** The transfer, if the caller is one of its sides (or an ADMIN); 404 for anyone else, as for an unknown one. */
async function readableTransfer(ctx: ServiceContext, id: string, caller: CallContext): Promise<OwnershipTransfer> {
  const actor = actingUser(caller);
  const t = await findTransfer(ctx.db, id);
  if (!t || !mayReadTransfer(actor, t)) throw notFound('Transfer', id);
  return t;
}

const eventBase = (
  t: Pick<TransferRow, 'id' | 'subjectType' | 'subjectId' | 'subjectName' | 'fromId' | 'fromName' | 'toId' | 'toName'>,
  audience: string[],
) => ({
  transferId: t.id,
  subjectType: t.subjectType,
  subjectId: t.subjectId,
  subjectName: t.subjectName,
  fromId: t.fromId,
  fromName: t.fromName,
  toId: t.toId,
  toName: t.toName,
  audience,
});

/**
 * plants.transfer.propose: the owner of a plant or seed lot (or an owner or manager of the owning organization acting
 * for it) proposes to give it to a person or an organization; a discarded or empty lot is refused (409 CONFLICT
 * `lot-discarded`, `lot-empty`). One transfer is pending per record at a time: a new proposal
 * withdraws the pending one (cancelled, its recipient told), unless it is being accepted (409 CONFLICT `accepting`);
 * two proposals at once leave one (409 CONFLICT `transfer-pending` for the other). The recipient side hears of it
 * (`evt.plants.transfer.proposed`).
 */
export const proposeTransfer = (ctx: ServiceContext, recorder: Recorder) =>
  handle(transferPropose, async (input, caller) => {
    const actor = actingUser(caller);
    const id = ctx.newId('trf', caller);
    if (caller.idempotencyRef) {
      const done = await findTransfer(ctx.db, id);
      if (done) return done;
    }
    const subject = await findSubject(ctx.db, input.subjectType, input.subjectId);
    const label = LABEL[input.subjectType];
    if (!subject) throw notFound(input.subjectType === 'seed-lot' ? 'Seed lot' : 'Plant', input.subjectId);
    const givenBy = assertSide(actor, subject.ownerId, 'not-owner');
    if (subject.problem) throw unmovable(subject.problem);
    if (input.to.id === subject.ownerId) {
      throw new AppError('VALIDATION_ERROR', 'to.id: the recipient owns it already', {
        field: 'to.id',
        reason: 'same-owner',
      });
    }
    if (input.to.name === undefined) {
      throw new AppError('VALIDATION_ERROR', 'to.name: name the recipient', { field: 'to.name' });
    }
    const fromName = await giverName(ctx, subject, caller);
    const audience = await audienceOf(ctx, input.to.id, caller);
    // A new proposal replaces the pending one (withdrawn, its recipient told): asked for before the transaction.
    const replaced = await pendingTransferOf(ctx.db, input.subjectType, subject.id);
    const replacedRow = replaced ? await findTransfer(ctx.db, replaced) : undefined;
    const replacedAudience = replacedRow ? await audienceOf(ctx, replacedRow.to.id, caller) : [];
    const row = {
      id,
      subjectType: input.subjectType,
      subjectId: subject.id,
      subjectName: subject.name,
      status: 'pending',
      fromId: subject.ownerId,
      fromName,
      toId: input.to.id,
      toName: input.to.name,
      message: input.message ?? null,
      givenBy,
      createdAt: ctx.clock.now().toISOString(),
    };
    const inserted = await ctx.db.transaction(async (tx) => {
      if (replaced) {
        const locked = await lockTransfer(tx, replaced);
        if (locked?.status === 'pending') {
          if (await recorder.hasIntent(ledgerTxId(replaced), tx)) {
            throw new AppError('CONFLICT', `The pending transfer of this ${label} is being accepted`, {
              reason: 'accepting',
              transferId: replaced,
            });
          }
          await closeTransfer(tx, replaced, 'cancelled', actor.id, row.createdAt);
          await ctx.outbox.enqueue(
            tx,
            transferCancelled,
            { ...eventBase(locked, replacedAudience), cancelledBy: actor.id },
            caller,
          );
        }
      }
      if (!(await insertTransfer(tx, row))) return false;
      await ctx.outbox.enqueue(tx, transferProposed, { ...eventBase(row, audience), proposedBy: actor.id }, caller);
      return true;
    });
    if (!inserted) {
      const pending = await pendingTransferOf(ctx.db, input.subjectType, subject.id);
      throw new AppError('CONFLICT', `This ${label} has a pending transfer already: cancel it first`, {
        reason: 'transfer-pending',
        ...(pending ? { transferId: pending } : {}),
      });
    }
    return (await findTransfer(ctx.db, id)) as OwnershipTransfer;
  });

/** plants.transfer.get: a transfer, to its sides (any member of a side's organization acting for it) and ADMINs. */
export const getTransfer = (ctx: ServiceContext) =>
  handle(transferGet, async ({ transferId }, caller) => readableTransfer(ctx, transferId, caller));

/** plants.transfer.list: the transfers to or from the caller, or the organization it acts for, newest first. */
export const listTransfersHandler = (ctx: ServiceContext) =>
  handle(transferList, async (input, caller) => {
    const actor = actingUser(caller);
    const { items, total } = await listTransfers(
      ctx.db,
      {
        partyId: listingParty(actor),
        ...(input.direction ? { direction: input.direction } : {}),
        ...(input.status ? { status: input.status } : {}),
        ...(input.subjectId ? { subjectId: input.subjectId } : {}),
      },
      (input.page - 1) * input.limit,
      input.limit,
    );
    return { items, pagination: paginate(input.page, input.limit, total) };
  });

/**
 * plants.transfer.accept: the recipient (or an owner or manager of the receiving organization acting for it)
 * accepts. The transfer is claimed in one transaction (its row locked, its ledger intent written, ADR 181), then
 * recorded on the ledger as `ownership.transfer` naming both sides and who signed for each; the owner of the plant
 * or seed lot changes with the stored record. A lot discarded or emptied since the proposal is refused. A decline or cancel meanwhile finds the intent and is refused.
 */
export const acceptTransfer = (ctx: ServiceContext, recorder: Recorder) =>
  handle(transferAccept, async ({ transferId }, caller) => {
    const actor = actingUser(caller);
    const t = await readableTransfer(ctx, transferId, caller);
    const acceptedBy = assertSide(actor, t.to.id, 'not-recipient');
    if (t.status === 'accepted') return t;
    if (t.status !== 'pending') throw notPending(t.status);
    const audience = await audienceOf(ctx, t.from.id, caller);
    const recordedAt = ctx.clock.now().toISOString();
    const txId = ledgerTxId(transferId);
    const payload = {
      transferId,
      subjectType: t.subjectType,
      subjectId: t.subjectId,
      from: { id: t.from.id, name: t.from.name },
      to: { id: t.to.id, name: t.to.name },
      givenBy: t.givenBy,
      acceptedBy,
      proposedAt: t.createdAt,
      acceptedAt: recordedAt,
    };
    const write = {
      txId,
      txType: OWNERSHIP_TRANSFER_TX,
      payload,
      record: {
        transfer: {
          record: {
            transferId,
            subjectType: t.subjectType,
            subjectId: t.subjectId,
            fromId: t.from.id,
            fromName: t.from.name,
            toId: t.to.id,
            toName: t.to.name,
            givenBy: t.givenBy,
            acceptedBy,
            recordedAt,
          },
          decidedBy: actor.id,
          searchOwner:
            t.subjectType === 'plant'
              ? searchTexts({ commonName: t.subjectName, scientificName: null, ownerName: t.to.name }).owner
              : null,
        },
      },
      events: [
        pendingEvent(
          transferAccepted,
          {
            transferId,
            subjectType: t.subjectType,
            subjectId: t.subjectId,
            subjectName: t.subjectName,
            fromId: t.from.id,
            fromName: t.from.name,
            toId: t.to.id,
            toName: t.to.name,
            audience,
            givenById: t.givenBy.accountId,
            acceptedById: actor.id,
            txId,
          },
          caller,
        ),
      ],
    };
    const claimed = await ctx.db.transaction(async (tx) => {
      const locked = await lockTransfer(tx, transferId);
      if (!locked) throw notFound('Transfer', transferId);
      if (locked.status === 'accepted') return undefined;
      if (locked.status !== 'pending') throw notPending(locked.status as OwnershipTransfer['status']);
      const subject = await findSubject(tx, t.subjectType, t.subjectId, true);
      if (!subject || subject.ownerId !== t.from.id) {
        throw new AppError('CONFLICT', `The ${LABEL[t.subjectType]} changed owner since the transfer was proposed`, {
          reason: 'owner-changed',
        });
      }
      if (subject.problem) throw unmovable(subject.problem);
      return (await recorder.intend(tx, write)).write;
    });
    if (claimed) await recorder.recordIntended(claimed, caller);
    return (await findTransfer(ctx.db, transferId)) as OwnershipTransfer;
  });

/** Closes a pending transfer (declined by the recipient side, or cancelled by the giving side) with its event. */
async function closeWith(
  ctx: ServiceContext,
  recorder: Recorder,
  caller: CallContext,
  transferId: string,
  status: 'declined' | 'cancelled',
): Promise<OwnershipTransfer> {
  const actor = actingUser(caller);
  const t = await readableTransfer(ctx, transferId, caller);
  if (status === 'declined') assertSide(actor, t.to.id, 'not-recipient');
  else assertSide(actor, t.from.id, 'not-giver');
  if (t.status === status && t.decidedBy === actor.id) return t;
  if (t.status !== 'pending') throw notPending(t.status);
  // The other side hears of it: the giver of a decline, the recipient of a cancel.
  const audience = await audienceOf(ctx, status === 'declined' ? t.from.id : t.to.id, caller);
  const at = ctx.clock.now().toISOString();
  await ctx.db.transaction(async (tx) => {
    const locked = await lockTransfer(tx, transferId);
    if (!locked) throw notFound('Transfer', transferId);
    if (locked.status !== 'pending') throw notPending(locked.status as OwnershipTransfer['status']);
    if (await recorder.hasIntent(ledgerTxId(transferId), tx)) {
      throw new AppError('CONFLICT', 'This transfer is being accepted', { reason: 'accepting' });
    }
    await closeTransfer(tx, transferId, status, actor.id, at);
    const base = eventBase(locked, audience);
    if (status === 'declined')
      await ctx.outbox.enqueue(tx, transferDeclined, { ...base, declinedBy: actor.id }, caller);
    else await ctx.outbox.enqueue(tx, transferCancelled, { ...base, cancelledBy: actor.id }, caller);
  });
  return (await findTransfer(ctx.db, transferId)) as OwnershipTransfer;
}

/** plants.transfer.decline: the recipient side declines a pending transfer. */
export const declineTransfer = (ctx: ServiceContext, recorder: Recorder) =>
  handle(transferDecline, ({ transferId }, caller) => closeWith(ctx, recorder, caller, transferId, 'declined'));

/** plants.transfer.cancel: the giving side withdraws a pending transfer. */
export const cancelTransfer = (ctx: ServiceContext, recorder: Recorder) =>
  handle(transferCancel, ({ transferId }, caller) => closeWith(ctx, recorder, caller, transferId, 'cancelled'));

/** plants.ownership.history: a plant's accepted transfers as the ledger recorded them (public, like the ledger). */
export const getOwnershipHistory = (ctx: ServiceContext) =>
  handle(plantOwnershipHistory, async ({ plantId }) => {
    if (!(await findPlant(ctx.db, plantId))) throw notFound('Plant', plantId);
    return { items: await ownershipHistory(ctx.db, 'plant', plantId) };
  });

/** plants.seed-lot.ownership: a seed lot's accepted transfers as the ledger recorded them (public, like the lot's identity). */
export const getSeedLotOwnershipHistory = (ctx: ServiceContext) =>
  handle(seedLotOwnershipHistory, async ({ seedLotId }) => {
    if (!(await findSeedLot(ctx.db, seedLotId))) throw notFound('Seed lot', seedLotId);
    return { items: await ownershipHistory(ctx.db, 'seed-lot', seedLotId) };
  });
