import {
  AppError,
  batchFail,
  batchFailed,
  batchGet,
  batchList,
  batchStart,
  batchStarted,
  pageOf,
  pageWindow,
  plantGet,
} from '@rootline/contracts';
import { assertOwnerOrAdmin } from '@rootline/domain';
import { call, handle, ledgerTxId, notFound, type ServiceContext } from '@rootline/host';
import {
  type BatchRow,
  failBatch,
  farmBatches,
  findBatchRow,
  findHarvest,
  insertBatch,
  lockBatchRow,
  readingsSummary,
  type StoredSeedSource,
  toBatch,
} from '../db/batches.repo.js';
import { findZoneRow, plantsGrowing } from '../db/farms.repo.js';
import type { HarvestRecorder } from '../db/ledger.js';
import { findRecipeRow, type StoredPhase } from '../db/recipes.repo.js';
import { type BatchStatus, expectedHarvestAt, failRefusal, harvestIdOf, startRefusal } from '../domain/batch-state.js';
import { assertOperator, FARM_RUNNER, requireFarm } from './farm.js';

/** The batch or NOT_FOUND. */
export async function requireBatch(ctx: ServiceContext, batchId: string): Promise<BatchRow> {
  const row = await findBatchRow(ctx.db, batchId);
  if (!row) throw notFound('Batch', batchId);
  return row;
}

/** Phases by recipe id: a recipe never changes once created (a change is a new version), so they can be kept. */
const phasesByRecipe = new Map<string, StoredPhase[]>();

/** The recipe phases of a batch, read once per recipe (readings ask for them on every request). */
export async function batchPhases(ctx: ServiceContext, recipeId: string): Promise<StoredPhase[]> {
  const known = phasesByRecipe.get(recipeId);
  if (known) return known;
  const recipe = await findRecipeRow(ctx.db, recipeId);
  if (!recipe) throw notFound('Recipe', recipeId);
  const phases = recipe.phases as StoredPhase[];
  phasesByRecipe.set(recipeId, phases);
  return phases;
}

/** The batch as answered: with its phase today, its readings summary and its harvest. */
export async function batchView(ctx: ServiceContext, row: BatchRow) {
  const [phases, summary, harvest] = await Promise.all([
    batchPhases(ctx, row.recipeId),
    readingsSummary(ctx.db, row.id),
    findHarvest(ctx.db, row.id),
  ]);
  return toBatch(row, phases, ctx.clock.now(), summary, harvest);
}

/**
 * farm.batch.start: the farm's owner starts a batch in one of its zones. A plant seed source is checked with the
 * plant registry before the transaction (no bus call while it is open); the zone row is locked while its free
 * plant sites are counted, so two starts cannot both take the last sites. A batch may be recorded as started
 * earlier (`startedAt`, checked by `startRefusal`); its state and expected harvest date follow from that start.
 */
export const startBatch = (ctx: ServiceContext) =>
  handle(batchStart, async (input, caller) => {
    const farm = await requireFarm(ctx, input.farmId);
    const actor = assertOwnerOrAdmin(caller, farm.ownerId);
    const id = ctx.newId('bat', caller);
    const done = await findBatchRow(ctx.db, id);
    if (done) return batchView(ctx, done);
    const zone = await findZoneRow(ctx.db, input.zoneId);
    if (!zone || zone.farmId !== farm.id) throw notFound('Zone', input.zoneId);
    const recipe = await findRecipeRow(ctx.db, input.recipeId);
    if (!recipe) throw notFound('Recipe', input.recipeId);
    if (recipe.crop !== input.crop) {
      throw new AppError('VALIDATION_ERROR', `crop: the recipe is for ${recipe.crop}, not ${input.crop}`, {
        field: 'crop',
        reason: 'recipe-crop',
      });
    }
    const phases = recipe.phases as StoredPhase[];
    const startedAt = input.startedAt === undefined ? ctx.clock.now() : new Date(input.startedAt);
    const refused = startRefusal(startedAt, phases, ctx.clock.now());
    if (refused) {
      const reason = refused.includes('future') ? 'in-future' : 'start-too-early';
      throw new AppError('VALIDATION_ERROR', refused, { field: 'startedAt', reason });
    }
    let seedSource: StoredSeedSource;
    if (input.seedSource.type === 'plant') {
      const plant = await call(ctx.bus, plantGet, { plantId: input.seedSource.plantId }, caller);
      seedSource = {
        type: 'plant',
        plantId: plant.id,
        plantName: plant.commonName,
        plantBlockHash: plant.block.hash,
        seedLot: null,
        supplier: null,
      };
    } else {
      seedSource = {
        type: 'seed-lot',
        plantId: null,
        plantName: null,
        plantBlockHash: null,
        seedLot: input.seedSource.seedLot,
        supplier: input.seedSource.supplier ?? null,
      };
    }
    const expected = expectedHarvestAt(startedAt, phases);
    await ctx.db.transaction(async (tx) => {
      await findZoneRow(tx, zone.id, true);
      const used = (await plantsGrowing(tx, [zone.id])).get(zone.id) ?? 0;
      if (used + input.plantCount > zone.capacity) {
        throw new AppError('VALIDATION_ERROR', `plantCount: the zone has ${zone.capacity - used} free plant sites`, {
          field: 'plantCount',
          reason: 'zone-capacity',
          capacity: zone.capacity,
          used,
        });
      }
      await insertBatch(tx, {
        id,
        farmId: farm.id,
        zoneId: zone.id,
        recipeId: recipe.id,
        crop: input.crop,
        variety: input.variety,
        plantCount: input.plantCount,
        seedSource,
        status: 'open',
        startedAt: startedAt.toISOString(),
        expectedHarvestAt: expected.toISOString(),
        ownerId: farm.ownerId,
        startedBy: actor.id,
      });
      await ctx.outbox.enqueue(
        tx,
        batchStarted,
        {
          batchId: id,
          farmId: farm.id,
          zoneId: zone.id,
          recipeId: recipe.id,
          crop: input.crop,
          plantId: seedSource.plantId,
          expectedHarvestAt: expected.toISOString(),
        },
        caller,
      );
    });
    return batchView(ctx, (await findBatchRow(ctx.db, id))!);
  });

/**
 * farm.batch.get: a batch, its readings summary and harvest are the farm's operational data: its owner's and an
 * ADMIN's only, as its live room (FORBIDDEN to others; the farm itself is public, so its batches' existence is no
 * secret).
 */
export const getBatch = (ctx: ServiceContext) =>
  handle(batchGet, async ({ batchId }, caller) => {
    const batch = await requireBatch(ctx, batchId);
    assertOperator(caller, batch.ownerId);
    return batchView(ctx, batch);
  });

/**
 * farm.batch.fail: closes an open batch as failed. Decided under the batch's row lock, which a harvest takes too
 * when it claims the batch (its ledger intent): a batch already failed is 409 DUPLICATE, one harvested or with a
 * harvest being recorded 409 CONFLICT naming that state, so a failure answered 200 is the one stored.
 */
export const failBatchHandler = (ctx: ServiceContext, recorder: HarvestRecorder) =>
  handle(batchFail, async ({ batchId, reason }, caller) => {
    const batch = await requireBatch(ctx, batchId);
    assertOwnerOrAdmin(caller, batch.ownerId, FARM_RUNNER);
    const row = await ctx.db.transaction(async (tx) => {
      const locked = (await lockBatchRow(tx, batchId)) ?? batch;
      const harvesting = locked.status === 'open' && (await recorder.hasIntent(ledgerTxId(harvestIdOf(batchId)), tx));
      const refusal = failRefusal(locked.status as BatchStatus, harvesting);
      if (refusal) throw new AppError(refusal.code, `Cannot fail: ${refusal.message}`, refusal.details);
      const failed = await failBatch(tx, batchId, reason, ctx.clock.now());
      if (!failed) throw new AppError('CONFLICT', 'Cannot fail: the batch is not open', { reason: 'batch-closed' });
      await ctx.outbox.enqueue(tx, batchFailed, { batchId, farmId: batch.farmId, reason }, caller);
      return failed;
    });
    return batchView(ctx, row);
  });

/** farm.batch.list: a page of the farm's batches, newest first. Operational data: owner or ADMIN. */
export const listBatches = (ctx: ServiceContext) =>
  handle(batchList, async ({ farmId, ...query }, caller) => {
    const farm = await requireFarm(ctx, farmId);
    assertOperator(caller, farm.ownerId);
    const { page, limit, offset } = pageWindow(query);
    const { rows, total } = await farmBatches(ctx.db, farmId, offset, limit);
    const items = await Promise.all(rows.map((row) => batchView(ctx, row)));
    return pageOf(items, page, limit, total);
  });
