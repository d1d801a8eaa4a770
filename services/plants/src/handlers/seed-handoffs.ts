import {
  AppError,
  type CallContext,
  federationPeersList,
  pageOf,
  pageWindow,
  peerTransactionVerify,
  seedHandoffCreate,
  seedHandoffList,
  seedHandoffReceive,
  transportEventRecord,
} from '@rootline/contracts';
import { isOwnerOrAdmin } from '@rootline/contracts/roles';
import { actingOwner, assertOwnerOrAdmin } from '@rootline/domain';
import { call, handle, ledgerTxId, notFound, type ServiceContext } from '@rootline/host';
import {
  findHandoff,
  findOutgoing,
  insertHandoff,
  listHandoffs,
  type SeedHandoffRow,
  setHandoffEvent,
} from '../db/seed-handoffs.repo.js';
import { findSeedLot, insertQuantityChange, insertSeedLot, takeFromSeedLot } from '../db/seed-lots.repo.js';
import {
  handoffTransactionId,
  handoffView,
  incomingEventRef,
  newHandoffId,
  outgoingEventRef,
  readHandoff,
} from '../domain/seed-handoffs.js';
import { journeyUnit } from '../domain/seed-loans.js';
import { cropKey } from '../domain/seed-lots.js';

/** Where a handoff's journey event happened: not recorded (the `hidden` privacy level stores no place). */
const NO_PLACE = { latitude: 0, longitude: 0 };

/** Refusals of a journey event that a retry would not change: the handoff stands without its event. */
const FINAL_REFUSALS = new Set(['FORBIDDEN', 'VALIDATION_ERROR', 'NOT_FOUND', 'CONFLICT']);

/** How long the peer's transaction may take to verify (fetched from the peer through the mirror). */
const PEER_VERIFY_TIMEOUT_MS = 25_000;

/**
 * Records the seed-sharing journey event of a handoff through the transport service, under the reference `ref` (so
 * its id follows from it and a retry converges on it), and stores its id and transaction's id with the handoff. A
 * refusal a retry would not change is logged and the handoff answered without its event.
 */
async function recordEvent(
  ctx: ServiceContext,
  row: SeedHandoffRow,
  ref: string,
  input: Record<string, unknown>,
  caller: CallContext,
): Promise<SeedHandoffRow> {
  if (row.eventId) return row;
  try {
    const receipt = await call(
      ctx.bus,
      transportEventRecord['seed-sharing'],
      {
        eventTime: ctx.clock.now().toISOString(),
        to: NO_PLACE,
        privacyLevel: 'hidden',
        transportMode: 'none',
        seedLotId: row.seedLotId,
        quantity: { value: row.amount, unit: journeyUnit(row.unit) },
        handoffId: row.handoffId,
        ...input,
      } as never,
      { ...caller, idempotencyRef: ref },
    );
    return setHandoffEvent(ctx.db, row, { eventId: receipt.id, transactionId: ledgerTxId(receipt.id) });
  } catch (err) {
    if (err instanceof AppError && FINAL_REFUSALS.has(err.code)) {
      ctx.log.warn({ err, handoffId: row.handoffId }, 'the journey event of a seed handoff was refused');
      return row;
    }
    throw err;
  }
}

/** A peer of this node's PEERS, or 404 `unknown-peer` (asked of the transparency service, which holds them). */
async function assertPeer(ctx: ServiceContext, peer: string, caller: CallContext): Promise<void> {
  const { items } = await call(ctx.bus, federationPeersList, {}, caller);
  if (!items.some((p) => p.name === peer)) {
    throw new AppError('NOT_FOUND', `This node has no peer named ${peer}`, { field: 'peer', reason: 'unknown-peer' });
  }
}

/**
 * plants.seed-handoff.create: the lot's holder (an owner or manager of an owning organization) hands part of it to a
 * grower on a peer node (ADR 309, 310). The quantity goes down under the lot's row lock as for a loan, the handoff
 * is kept, and its seed-sharing event is recorded under an id derived from the handoff id, carrying the id and the
 * lot's crop, variety and harvest year to the ledger for the peer to verify. A retry with the same reference
 * answers the same handoff and finishes its event.
 */
export const handSeedLot = (ctx: ServiceContext) =>
  handle(seedHandoffCreate, async ({ seedLotId, peer, quantity, recipient, callerName }, caller) => {
    const handoffId = newHandoffId(caller.idempotencyRef);
    let row = caller.idempotencyRef ? await findOutgoing(ctx.db, handoffId) : undefined;
    if (!row) {
      await assertPeer(ctx, peer, caller);
      const at = ctx.clock.now().toISOString();
      row = await ctx.db.transaction(async (tx) => {
        const lot = await findSeedLot(tx, seedLotId, true);
        if (!lot) throw notFound('Seed lot', seedLotId);
        const actor = assertOwnerOrAdmin(caller, lot.ownerId, 'manager');
        if (lot.discardedAt) {
          throw new AppError('CONFLICT', 'The seed lot was discarded and no longer changes', { reason: 'discarded' });
        }
        if (quantity.amount > lot.quantityAmount) {
          throw new AppError('CONFLICT', `The lot holds ${lot.quantityAmount} ${lot.quantityUnit}, less than asked`, {
            field: 'quantity.amount',
            reason: 'exceeds-lot',
            available: lot.quantityAmount,
            unit: lot.quantityUnit,
          });
        }
        await takeFromSeedLot(tx, lot, {
          amount: quantity.amount,
          reason: 'handed-off',
          note: handoffId,
          at,
          by: actor.id,
        });
        const created = await insertHandoff(tx, {
          handoffId,
          direction: 'outgoing',
          peer,
          seedLotId,
          amount: quantity.amount,
          unit: lot.quantityUnit,
          recipient,
          createdAt: at,
          createdBy: actor.id,
        });
        if (!created)
          throw new AppError('CONFLICT', `The handoff ${handoffId} exists already`, { reason: 'in-flight' });
        return created;
      });
    }
    const lot = await findSeedLot(ctx.db, row.seedLotId);
    if (!lot) throw notFound('Seed lot', row.seedLotId);
    const actor = actingOwner(caller, lot.ownerId).actor;
    const holderName = actor.org?.id === lot.ownerId ? actor.org.name : (callerName ?? lot.ownerId);
    row = await recordEvent(
      ctx,
      row,
      outgoingEventRef(handoffId),
      {
        handler: { id: lot.ownerId, name: holderName },
        // The recipient has no account here: a party named as the holder stated it, on the peer.
        recipient: { id: `peer:${row.peer}`, name: row.recipient, ...(callerName ? { nameStatedBy: callerName } : {}) },
        handoffLot: {
          crop: lot.crop,
          ...(lot.variety ? { variety: lot.variety } : {}),
          harvestYear: lot.harvestYear,
        },
      },
      caller,
    );
    return handoffView(row);
  });

/** plants.seed-handoff.list: a lot's handoffs, to its holder (a viewer of an owning organization or above). */
export const listSeedHandoffs = (ctx: ServiceContext) =>
  handle(seedHandoffList, async (input, caller) => {
    const lot = await findSeedLot(ctx.db, input.seedLotId);
    if (!lot || !isOwnerOrAdmin(caller.actor, lot.ownerId, 'viewer')) throw notFound('Seed lot', input.seedLotId);
    const { page, limit, offset } = pageWindow(input);
    const { rows, total } = await listHandoffs(ctx.db, input.seedLotId, offset, limit);
    return pageOf(rows.map(handoffView), page, limit, total);
  });

/**
 * plants.seed-handoff.receive: the recipient on this node claims a handoff of a peer (ADR 309, 310). The peer's
 * transaction (its id follows from the handoff id) is verified through this node's transparency service, as a
 * remote parent is; it must be a seed-sharing event naming that handoff. A new lot of the caller (or the
 * organization it acts for) is then made from what it names, with the proof, and an incoming seed-sharing event
 * with the same handoff id is recorded. A handoff is received once: again by the same claimant answers the same lot
 * (whatever the peer's state is now); by another, 409 `handoff-claimed`.
 */
export const receiveSeedHandoff = (ctx: ServiceContext) =>
  handle(seedHandoffReceive, async ({ peer, handoffId, callerName }, caller) => {
    const { ownerId, actor } = actingOwner(caller);
    const key = { peer, handoffId, direction: 'incoming' as const };
    const claimedBy = (row: SeedHandoffRow) => {
      if (row.recipient !== ownerId) {
        throw new AppError('CONFLICT', 'The handoff has been received by another account', {
          reason: 'handoff-claimed',
        });
      }
      return row;
    };
    let row = await findHandoff(ctx.db, key);
    if (row) claimedBy(row);
    else {
      const transactionId = handoffTransactionId(handoffId);
      const v = await call(ctx.bus, peerTransactionVerify, { peer, transactionId }, caller, PEER_VERIFY_TIMEOUT_MS);
      const handed = readHandoff(v, handoffId);
      const lotId = ctx.newId('lot', { idempotencyRef: `${incomingEventRef(peer, handoffId)}\n${ownerId}` });
      const at = ctx.clock.now().toISOString();
      const created = await ctx.db.transaction(async (tx) => {
        const kept = await insertHandoff(tx, {
          ...key,
          seedLotId: lotId,
          amount: handed.amount,
          unit: handed.unit,
          recipient: ownerId,
          peerUrl: v.url,
          remoteSeedLotId: handed.seedLotId,
          remoteTransactionId: v.transactionId,
          blockHash: v.blockHash,
          bundleDigest: v.bundleDigest,
          checkpointSize: v.checkpoint.treeSize,
          checkpointRoot: v.checkpoint.rootHash,
          verifiedAt: v.verifiedAt,
          createdAt: at,
          createdBy: actor.id,
        });
        // Received meanwhile by a concurrent claim: nothing of this one is written.
        if (!kept) return undefined;
        await insertSeedLot(tx, {
          id: lotId,
          ownerId,
          crop: handed.crop,
          cropKey: cropKey(handed.crop),
          variety: handed.variety,
          parentPlantIds: [],
          harvestYear: handed.harvestYear,
          quantityAmount: handed.amount,
          quantityUnit: handed.unit,
          notes: null,
          createdAt: at,
          createdBy: actor.id,
          updatedAt: at,
        });
        await insertQuantityChange(tx, {
          seedLotId: lotId,
          reason: 'received',
          amount: handed.amount,
          delta: handed.amount,
          unit: handed.unit,
          note: handoffId,
          at,
          by: actor.id,
        });
        return kept;
      });
      row = created ?? claimedBy((await findHandoff(ctx.db, key)) as SeedHandoffRow);
    }
    const name = actor.org?.id === ownerId ? actor.org.name : (callerName ?? ownerId);
    row = await recordEvent(
      ctx,
      row,
      incomingEventRef(peer, handoffId),
      { handler: { id: ownerId, name }, recipient: { id: ownerId, name } },
      caller,
    );
    return handoffView(row);
  });
