import {
  AppError,
  germinationTestList,
  germinationTestRecord,
  pageOf,
  pageWindow,
  seedLotCreate,
  seedLotDiscard,
  seedLotGet,
  seedLotList,
  seedLotUpdate,
} from '@rootline/contracts';
import { isOwnerOrAdmin } from '@rootline/contracts/roles';
import { actingOwner, actingUser, assertOwnerOrAdmin } from '@rootline/domain';
import { handle, notFound, type ServiceContext } from '@rootline/host';
import { incomingOf } from '../db/seed-handoffs.repo.js';
import {
  allSeedLots,
  findGerminationTest,
  findSeedLot,
  insertGerminationTest,
  insertQuantityChange,
  insertSeedLot,
  latestTests,
  listGerminationTests,
  listSeedLots,
  missingPlants,
  type NewSeedLotRow,
  plantNames,
  type SeedLotRow,
  updateSeedLot,
} from '../db/seed-lots.repo.js';
import { handoffSource } from '../domain/seed-handoffs.js';
import { cropKey, germinationTestView, seedLotView } from '../domain/seed-lots.js';
import { germinationTestProblem } from '../domain/viability.js';

type Storage = { place?: string; temperatureC?: number; humidityPct?: number; container?: string } | null | undefined;

/** The storage columns of a lot from its `storage` field (null: cleared; undefined: unchanged). */
function storageColumns(storage: Storage): Partial<NewSeedLotRow> {
  if (storage === undefined) return {};
  return {
    storagePlace: storage?.place ?? null,
    storageTemperatureC: storage?.temperatureC ?? null,
    storageHumidityPct: storage?.humidityPct ?? null,
    storageContainer: storage?.container ?? null,
  };
}

/** A lot that can still change: CONFLICT once discarded. */
function assertKept(lot: SeedLotRow): void {
  if (lot.discardedAt) {
    throw new AppError('CONFLICT', 'The seed lot was discarded and no longer changes', { reason: 'discarded' });
  }
}

async function lotOr404(ctx: ServiceContext, id: string, forUpdate = false, db = ctx.db): Promise<SeedLotRow> {
  const lot = await findSeedLot(db, id, forUpdate);
  if (!lot) throw notFound('Seed lot', id);
  return lot;
}

/** plants.seed-lot.create: a lot of the caller, or of the organization it acts for (member or above). */
export const createSeedLot = (ctx: ServiceContext) =>
  handle(seedLotCreate, async (input, caller) => {
    const { ownerId, actor } = actingOwner(caller);
    const id = ctx.newId('lot', caller);
    const now = ctx.clock.now();
    const done = caller.idempotencyRef ? await findSeedLot(ctx.db, id) : undefined;
    if (done) return seedLotView(done, undefined, true, now);
    const parents = input.parentPlantIds ?? [];
    const missing = await missingPlants(ctx.db, parents);
    if (missing.length > 0) {
      throw new AppError('NOT_FOUND', `parentPlantIds: no plant ${missing.join(', ')}`, {
        field: 'parentPlantIds',
        missing,
      });
    }
    const at = now.toISOString();
    const row = await ctx.db.transaction(async (tx) => {
      const created = await insertSeedLot(tx, {
        id,
        ownerId,
        crop: input.crop.trim(),
        cropKey: cropKey(input.crop),
        variety: input.variety?.trim() ?? null,
        parentPlantIds: parents,
        harvestYear: input.harvestYear,
        quantityAmount: input.quantity.amount,
        quantityUnit: input.quantity.unit,
        ...storageColumns(input.storage ?? null),
        notes: input.notes ?? null,
        createdAt: at,
        createdBy: actor.id,
        updatedAt: at,
      });
      await insertQuantityChange(tx, {
        seedLotId: id,
        reason: 'recorded',
        amount: input.quantity.amount,
        delta: input.quantity.amount,
        unit: input.quantity.unit,
        at,
        by: actor.id,
      });
      return created;
    });
    return seedLotView(row, undefined, true, now);
  });

/**
 * plants.seed-lot.get: every field to its holder (viewer of an owning organization or above), the public ones else;
 * with its parent plants named.
 */
export const getSeedLot = (ctx: ServiceContext) =>
  handle(seedLotGet, async ({ seedLotId }, caller) => {
    const lot = await lotOr404(ctx, seedLotId);
    const holder = isOwnerOrAdmin(caller.actor, lot.ownerId, 'viewer');
    const [last, incoming, parents] = await Promise.all([
      holder ? latestTests(ctx.db, [lot.id]).then((t) => t.get(lot.id)) : undefined,
      incomingOf(ctx.db, [lot.id]),
      plantNames(ctx.db, lot.parentPlantIds),
    ]);
    const received = incoming.get(lot.id);
    return {
      ...seedLotView(lot, last, holder, ctx.clock.now(), received ? handoffSource(received) : null),
      parents,
    };
  });

/** plants.seed-lot.list: the lots an owner holds; the caller is that owner, or a viewer of the organization. */
export const listSeedLotsHandler = (ctx: ServiceContext) =>
  handle(seedLotList, async (input, caller) => {
    const actor = actingUser(caller);
    const ownerId = input.ownerId ?? actor.org?.id ?? actor.id;
    assertOwnerOrAdmin(caller, ownerId, 'viewer');
    const { page, limit, offset } = pageWindow(input);
    const filter = {
      ownerId,
      ...(input.crop === undefined ? {} : { cropKey: cropKey(input.crop) }),
      ...(input.harvestYear === undefined ? {} : { harvestYear: input.harvestYear }),
    };
    const now = ctx.clock.now();
    if (input.lowViability !== undefined) {
      // Viability is computed from the last test and today's date, so it is filtered here, not in SQL.
      const rows = await allSeedLots(ctx.db, filter);
      const tests = await latestTests(
        ctx.db,
        rows.map((r) => r.id),
      );
      const views = rows
        .map((r) => seedLotView(r, tests.get(r.id), true, now))
        .filter((v) => (v.viability?.low ?? false) === input.lowViability);
      return pageOf(views.slice(offset, offset + limit), page, limit, views.length);
    }
    const { rows, total } = await listSeedLots(ctx.db, filter, offset, limit);
    const ids = rows.map((r) => r.id);
    const [tests, incoming] = await Promise.all([latestTests(ctx.db, ids), incomingOf(ctx.db, ids)]);
    const source = (id: string) => {
      const received = incoming.get(id);
      return received ? handoffSource(received) : null;
    };
    return pageOf(
      rows.map((r) => seedLotView(r, tests.get(r.id), true, now, source(r.id))),
      page,
      limit,
      total,
    );
  });

/** plants.seed-lot.update: its holder (member or above) changes it; a new quantity is recorded as a change. */
export const updateSeedLotHandler = (ctx: ServiceContext) =>
  handle(seedLotUpdate, async ({ seedLotId, quantityNote, ...change }, caller) => {
    if (Object.keys(change).length === 0) {
      throw new AppError('VALIDATION_ERROR', 'Send at least one field to change', { reason: 'empty-change' });
    }
    const now = ctx.clock.now();
    const at = now.toISOString();
    const row = await ctx.db.transaction(async (tx) => {
      const lot = await lotOr404(ctx, seedLotId, true, tx);
      const actor = assertOwnerOrAdmin(caller, lot.ownerId);
      assertKept(lot);
      const q = change.quantity;
      if (q && (q.amount !== lot.quantityAmount || q.unit !== lot.quantityUnit)) {
        await insertQuantityChange(tx, {
          seedLotId,
          reason: 'adjusted',
          amount: q.amount,
          // A change of unit starts the count again: its delta is the new amount.
          delta: q.unit === lot.quantityUnit ? q.amount - lot.quantityAmount : q.amount,
          unit: q.unit,
          note: quantityNote ?? null,
          at,
          by: actor.id,
        });
      }
      return updateSeedLot(tx, seedLotId, {
        ...(change.crop === undefined ? {} : { crop: change.crop.trim(), cropKey: cropKey(change.crop) }),
        ...(change.variety === undefined ? {} : { variety: change.variety?.trim() ?? null }),
        ...(change.harvestYear === undefined ? {} : { harvestYear: change.harvestYear }),
        ...(q ? { quantityAmount: q.amount, quantityUnit: q.unit } : {}),
        ...storageColumns(change.storage),
        ...(change.notes === undefined ? {} : { notes: change.notes }),
        updatedAt: at,
      });
    });
    const last = (await latestTests(ctx.db, [row.id])).get(row.id);
    return seedLotView(row, last, true, now);
  });

/**
 * plants.seed-lot.discard: its holder (a manager or owner of an owning organization) discards it. The lot is kept,
 * for the plants and journeys that name it, but no longer listed or changed; discarding it again changes nothing.
 */
export const discardSeedLot = (ctx: ServiceContext) =>
  handle(seedLotDiscard, async ({ seedLotId }, caller) => {
    const now = ctx.clock.now();
    const row = await ctx.db.transaction(async (tx) => {
      const lot = await lotOr404(ctx, seedLotId, true, tx);
      assertOwnerOrAdmin(caller, lot.ownerId, 'manager');
      if (lot.discardedAt) return lot;
      return updateSeedLot(tx, seedLotId, { discardedAt: now.toISOString(), updatedAt: now.toISOString() });
    });
    const last = (await latestTests(ctx.db, [row.id])).get(row.id);
    return seedLotView(row, last, true, now);
  });

/** plants.seed-lot.record-test: a germination test of a lot, by its holder (member or above). */
export const recordGerminationTest = (ctx: ServiceContext) =>
  handle(germinationTestRecord, async ({ seedLotId, ...test }, caller) => {
    const id = ctx.newId('gmt', caller);
    const done = caller.idempotencyRef ? await findGerminationTest(ctx.db, id) : undefined;
    if (done) return germinationTestView(done);
    const now = ctx.clock.now();
    const lot = await lotOr404(ctx, seedLotId);
    const actor = assertOwnerOrAdmin(caller, lot.ownerId);
    assertKept(lot);
    const problem = germinationTestProblem(test, lot.harvestYear, now);
    if (problem) throw new AppError('VALIDATION_ERROR', problem.message, { field: problem.field });
    const row = await insertGerminationTest(ctx.db, {
      id,
      seedLotId,
      testedOn: test.testedOn,
      seedsSown: test.seedsSown,
      germinated: test.germinated,
      method: test.method,
      notes: test.notes ?? null,
      recordedAt: now.toISOString(),
      recordedBy: actor.id,
    });
    return germinationTestView(row);
  });

/** plants.seed-lot.list-tests: a lot's tests, latest first, to its holder (viewer of an organization or above). */
export const listGerminationTestsHandler = (ctx: ServiceContext) =>
  handle(germinationTestList, async ({ seedLotId, ...input }, caller) => {
    const lot = await lotOr404(ctx, seedLotId);
    assertOwnerOrAdmin(caller, lot.ownerId, 'viewer');
    const { page, limit, offset } = pageWindow(input);
    const { rows, total } = await listGerminationTests(ctx.db, seedLotId, offset, limit);
    return pageOf(rows.map(germinationTestView), page, limit, total);
  });
