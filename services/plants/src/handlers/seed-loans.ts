import {
  AppError,
  type CallContext,
  pageOf,
  pageWindow,
  seedLoanCreate,
  seedLoanGet,
  seedLoanLent,
  seedLoanList,
  seedLoanReturn,
  transportEventRecord,
} from '@rootline/contracts';
import { isOwnerOrAdmin } from '@rootline/contracts/roles';
import { actingUser, assertOwnerOrAdmin } from '@rootline/domain';
import { call, handle, notFound, type ServiceContext } from '@rootline/host';
import {
  findSeedLoan,
  insertSeedLoan,
  listSeedLoans,
  lotNames,
  plantsGrownFrom,
  type SeedLoanRow,
  updateSeedLoan,
} from '../db/seed-loans.repo.js';
import { findSeedLot, insertQuantityChange, insertSeedLot, takeFromSeedLot } from '../db/seed-lots.repo.js';
import { dueAtOf, journeyUnit, notGrownFromLoan, seedLoanView } from '../domain/seed-loans.js';
import { cropKey } from '../domain/seed-lots.js';

/** Where a loan's journey event happened: not recorded (the `hidden` privacy level stores no place). */
const NO_PLACE = { latitude: 0, longitude: 0 };

/** Refusals of a journey event that a retry would not change: the loan or return stands without its event. */
const FINAL_REFUSALS = new Set(['FORBIDDEN', 'VALIDATION_ERROR', 'NOT_FOUND', 'CONFLICT']);

/** The loan as answered: with its lot's crop and variety and the plants grown from it. */
async function view(ctx: ServiceContext, loan: SeedLoanRow) {
  const [names, grown] = await Promise.all([lotNames(ctx.db, [loan.seedLotId]), plantsGrownFrom(ctx.db, [loan])]);
  const lot = names.get(loan.seedLotId) ?? { crop: '', variety: null };
  return seedLoanView(loan, lot, grown.get(loan.id) ?? [], ctx.clock.now());
}

/**
 * Records a journey event of a loan through the transport service (which writes it to the ledger) and answers its
 * id; a refusal a retry would not change is logged and answered null, so the loan or return stands.
 */
async function journeyEvent(
  ctx: ServiceContext,
  kind: 'seed-sharing' | 'seed-saving',
  input: Record<string, unknown>,
  caller: CallContext,
): Promise<string | null> {
  try {
    const receipt = await call(
      ctx.bus,
      transportEventRecord[kind],
      {
        eventTime: ctx.clock.now().toISOString(),
        to: NO_PLACE,
        privacyLevel: 'hidden',
        transportMode: 'none',
        ...input,
      } as never,
      caller,
    );
    return receipt.id;
  } catch (err) {
    if (err instanceof AppError && FINAL_REFUSALS.has(err.code)) {
      ctx.log.warn({ err, kind }, 'the journey event of a seed loan was refused: the loan stands without it');
      return null;
    }
    throw err;
  }
}

/** A loan its lender (viewer of an organization or above), its borrower or an ADMIN reads; 404 for anyone else. */
function assertParty(caller: CallContext, loan: SeedLoanRow): void {
  const actor = actingUser(caller);
  if (actor.id === loan.borrowerId || isOwnerOrAdmin(actor, loan.lenderId, 'viewer')) return;
  throw notFound('Seed loan', loan.id);
}

/**
 * plants.seed-loan.create: the lot's holder (an owner or manager of an owning organization) lends part of it. The
 * lot's quantity goes down under its row lock, never below zero; the loan is then a seed-sharing journey event from
 * the holder to the borrower (ADR 294). A retry with the same reference answers the loan and finishes its event.
 */
export const lendSeedLot = (ctx: ServiceContext) =>
  handle(seedLoanCreate, async ({ seedLotId, borrower, quantity, dueSeason, notes, callerName }, caller) => {
    const id = ctx.newId('sln', caller);
    const now = ctx.clock.now();
    let loan = caller.idempotencyRef ? await findSeedLoan(ctx.db, id) : undefined;
    if (!loan) {
      const dueAt = dueAtOf(dueSeason);
      if (dueAt.getTime() <= now.getTime()) {
        throw new AppError('VALIDATION_ERROR', `dueSeason: ${dueSeason} has ended already`, {
          field: 'dueSeason',
          reason: 'due-passed',
        });
      }
      const at = now.toISOString();
      loan = await ctx.db.transaction(async (tx) => {
        const lot = await findSeedLot(tx, seedLotId, true);
        if (!lot) throw notFound('Seed lot', seedLotId);
        const actor = assertOwnerOrAdmin(caller, lot.ownerId, 'manager');
        if (lot.discardedAt) {
          throw new AppError('CONFLICT', 'The seed lot was discarded and no longer changes', { reason: 'discarded' });
        }
        if (borrower.id === lot.ownerId) {
          throw new AppError('VALIDATION_ERROR', 'borrower.id: the lot’s holder cannot borrow from it', {
            field: 'borrower.id',
            reason: 'same-owner',
          });
        }
        if (quantity.amount > lot.quantityAmount) {
          throw new AppError(
            'CONFLICT',
            `The lot holds ${lot.quantityAmount} ${lot.quantityUnit}, less than the loan`,
            {
              field: 'quantity.amount',
              reason: 'loan-exceeds-lot',
              available: lot.quantityAmount,
              unit: lot.quantityUnit,
            },
          );
        }
        await takeFromSeedLot(tx, lot, { amount: quantity.amount, reason: 'lent', note: id, at, by: actor.id });
        const lenderName =
          actor.org?.id === lot.ownerId ? actor.org.name : actor.id === lot.ownerId ? callerName : undefined;
        const created = await insertSeedLoan(tx, {
          id,
          seedLotId,
          lenderId: lot.ownerId,
          lenderName: lenderName ?? lot.ownerId,
          borrowerId: borrower.id,
          borrowerName: borrower.name ?? borrower.id,
          amount: quantity.amount,
          unit: lot.quantityUnit,
          dueSeason,
          dueAt: dueAt.toISOString(),
          notes: notes ?? null,
          lentAt: at,
          lentBy: actor.id,
        });
        // The borrower is told (ADR 296), committed with the loan.
        await ctx.outbox.enqueue(
          tx,
          seedLoanLent,
          {
            loanId: id,
            seedLotId,
            crop: lot.crop,
            variety: lot.variety,
            lenderId: created.lenderId,
            lenderName: created.lenderName,
            borrowerId: created.borrowerId,
            amount: created.amount,
            unit: created.unit,
            dueSeason,
            audience: [created.borrowerId],
          },
          caller,
        );
        return created;
      });
    }
    if (!loan.lendEventId) {
      const eventId = await journeyEvent(
        ctx,
        'seed-sharing',
        {
          seedLotId: loan.seedLotId,
          quantity: { value: loan.amount, unit: journeyUnit(loan.unit) },
          handler: { id: loan.lenderId, name: loan.lenderName },
          recipient: { id: loan.borrowerId, name: loan.borrowerName },
        },
        caller,
      );
      if (eventId) loan = await updateSeedLoan(ctx.db, loan.id, { lendEventId: eventId });
    }
    return view(ctx, loan);
  });

/** plants.seed-loan.get: to its lender, its borrower and ADMINs; 404 to anyone else. */
export const getSeedLoan = (ctx: ServiceContext) =>
  handle(seedLoanGet, async ({ loanId }, caller) => {
    const loan = await findSeedLoan(ctx.db, loanId);
    if (!loan) throw notFound('Seed loan', loanId);
    assertParty(caller, loan);
    return view(ctx, loan);
  });

/** plants.seed-loan.list: a lender's loans (the caller or the organization it acts for), or the caller's borrowed. */
export const listSeedLoansHandler = (ctx: ServiceContext) =>
  handle(seedLoanList, async (input, caller) => {
    const actor = actingUser(caller);
    const { page, limit, offset } = pageWindow(input);
    const now = ctx.clock.now();
    const side = input.role === 'borrower' ? { borrowerId: actor.id } : { lenderId: actor.org?.id ?? actor.id };
    const { rows, total } = await listSeedLoans(
      ctx.db,
      {
        ...side,
        ...(input.status === undefined ? {} : { status: input.status }),
        ...(input.seedLotId === undefined ? {} : { seedLotId: input.seedLotId }),
        now: now.toISOString(),
      },
      offset,
      limit,
    );
    const [names, grown] = await Promise.all([
      lotNames(
        ctx.db,
        rows.map((r) => r.seedLotId),
      ),
      plantsGrownFrom(ctx.db, rows),
    ]);
    return pageOf(
      rows.map((r) =>
        seedLoanView(r, names.get(r.seedLotId) ?? { crop: '', variety: null }, grown.get(r.id) ?? [], now),
      ),
      page,
      limit,
      total,
    );
  });

/**
 * plants.seed-loan.return: the borrower returns seed saved from plants they grew from the loan as a new lot held by
 * the lender, whose parents are those plants (ADR 295); the return is a seed-saving journey event of the first of
 * them. A loan returns once.
 */
export const returnSeedLoan = (ctx: ServiceContext) =>
  handle(seedLoanReturn, async ({ loanId, parentPlantIds, quantity, harvestYear, notes, callerName }, caller) => {
    const actor = actingUser(caller);
    const found = await findSeedLoan(ctx.db, loanId);
    if (!found) throw notFound('Seed loan', loanId);
    assertParty(caller, found);
    if (actor.id !== found.borrowerId) {
      throw new AppError('FORBIDDEN', 'Only the borrower returns a loan', { reason: 'not-borrower' });
    }
    const lotId = ctx.newId('lot', caller);
    let loan = found;
    if (!(loan.returnLotId === lotId && caller.idempotencyRef)) {
      if (loan.returnedAt) {
        throw new AppError('CONFLICT', 'The loan has been returned already', {
          reason: 'loan-returned',
          returnLotId: loan.returnLotId,
        });
      }
      const grown = (await plantsGrownFrom(ctx.db, [loan])).get(loan.id) ?? [];
      const stray = notGrownFromLoan(
        parentPlantIds,
        grown.map((p) => p.id),
      );
      if (stray.length > 0) {
        throw new AppError('VALIDATION_ERROR', `parentPlantIds: not grown from the loan: ${stray.join(', ')}`, {
          field: 'parentPlantIds',
          reason: 'not-grown-from-loan',
          plantIds: stray,
        });
      }
      const at = ctx.clock.now().toISOString();
      loan = await ctx.db.transaction(async (tx) => {
        const locked = await findSeedLoan(tx, loanId, true);
        if (!locked || locked.returnedAt) {
          throw new AppError('CONFLICT', 'The loan has been returned already', { reason: 'loan-returned' });
        }
        const lent = await findSeedLot(tx, locked.seedLotId);
        if (!lent) throw notFound('Seed lot', locked.seedLotId);
        await insertSeedLot(tx, {
          id: lotId,
          ownerId: locked.lenderId,
          crop: lent.crop,
          cropKey: cropKey(lent.crop),
          variety: lent.variety,
          parentPlantIds,
          harvestYear,
          quantityAmount: quantity.amount,
          quantityUnit: quantity.unit,
          notes: notes ?? null,
          createdAt: at,
          createdBy: actor.id,
          updatedAt: at,
        });
        await insertQuantityChange(tx, {
          seedLotId: lotId,
          reason: 'returned',
          amount: quantity.amount,
          delta: quantity.amount,
          unit: quantity.unit,
          note: loanId,
          at,
          by: actor.id,
        });
        return updateSeedLoan(tx, loanId, { returnedAt: at, returnedBy: actor.id, returnLotId: lotId });
      });
    }
    if (!loan.returnEventId) {
      const eventId = await journeyEvent(
        ctx,
        'seed-saving',
        {
          plantId: parentPlantIds[0],
          quantity: { value: quantity.amount, unit: journeyUnit(quantity.unit) },
          handler: { id: actor.id, name: callerName ?? loan.borrowerName },
          recipient: { id: loan.lenderId, name: loan.lenderName },
        },
        caller,
      );
      if (eventId) loan = await updateSeedLoan(ctx.db, loan.id, { returnEventId: eventId });
    }
    return view(ctx, loan);
  });
