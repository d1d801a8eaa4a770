import { AppError, batchHarvest, batchHarvested, newId } from '@rootline/contracts';
import { pendingEvent } from '@rootline/db';
import { assertOwnerOrAdmin } from '@rootline/domain';
import { handle, ledgerTxId, notFound, type ServiceContext } from '@rootline/host';
import { findHarvest, lockBatchRow, type StoredSeedSource } from '../db/batches.repo.js';
import type { HarvestRecorder } from '../db/ledger.js';
import { findRecipeRow } from '../db/recipes.repo.js';
import {
  type BatchStatus,
  batchState,
  harvestIdOf,
  harvestRefusal,
  isEarlyHarvest,
  isOwnHarvest,
} from '../domain/batch-state.js';
import { batchPhases, batchView, requireBatch } from './batch.js';
import { FARM_RUNNER } from './farm.js';

const alreadyHarvested = (state: 'harvested' | 'harvesting' = 'harvested') =>
  new AppError(
    'DUPLICATE',
    state === 'harvested'
      ? 'Cannot harvest: the batch is already harvested'
      : 'Cannot harvest: another harvest of the batch is being recorded',
    { reason: 'batch-harvested', state },
  );

type HarvestWrite = Parameters<HarvestRecorder['record']>[0];

/**
 * farm.batch.harvest: records the harvest on the ledger (`farm.harvest`, naming the batch, its recipe and its seed
 * source with the plant's block, so the ledger links the harvest into the plant's lineage), then stores it and
 * completes the batch in the recorder's statement, with the farm.harvest event.
 *
 * The harvest claims the batch before it goes to the ledger: under the batch's row lock it checks that the batch
 * is open and writes the ledger intent in the same transaction (`recorder.intend`). A fail takes the same lock and
 * refuses a batch with a harvest intent (409 CONFLICT, state `harvesting`), so exactly one of a concurrent harvest
 * and fail is acknowledged, and a harvest refused (batch failed) leaves nothing on the ledger.
 *
 * The harvest id is the batch's, so concurrent harvests of a batch are one ledger transaction and one stored row:
 * the first to write the intent. A request that finds another reference on the intent or the row answers 409
 * DUPLICATE: its harvest was not recorded. A retry with the same Idempotency-Key has the same reference and is
 * answered the harvest.
 *
 * An open batch may be harvested in any state; before the recipe's expected harvest date the harvest is recorded
 * as early (`early`, stored, on the ledger and in the event). A failed batch is refused (409 CONFLICT).
 */
export const harvestBatch = (ctx: ServiceContext, recorder: HarvestRecorder) =>
  handle(batchHarvest, async ({ batchId, yieldKg, qualityGrade, notes }, caller) => {
    const batch = await requireBatch(ctx, batchId);
    const actor = assertOwnerOrAdmin(caller, batch.ownerId, FARM_RUNNER);
    const id = harvestIdOf(batchId);
    const requestRef = caller.idempotencyRef ?? newId('hrq', ctx.clock.now().getTime());
    // A retry of a recorded harvest is answered from what is stored; anyone else's harvest is a duplicate.
    const stored = await findHarvest(ctx.db, batchId);
    if (stored) {
      if (!isOwnHarvest(stored, requestRef)) throw alreadyHarvested();
      return batchView(ctx, await requireBatch(ctx, batchId));
    }
    const phases = await batchPhases(ctx, batch.recipeId);
    const now = ctx.clock.now();
    const early = isEarlyHarvest(new Date(batch.expectedHarvestAt), now);
    const recipe = await findRecipeRow(ctx.db, batch.recipeId);
    const seed = batch.seedSource as StoredSeedSource;
    const harvestedAt = now.toISOString();
    const write: HarvestWrite = {
      txId: ledgerTxId(id),
      txType: 'farm.harvest',
      payload: {
        harvestId: id,
        batchId,
        farmId: batch.farmId,
        zoneId: batch.zoneId,
        recipe: { id: batch.recipeId, version: recipe?.version ?? null, parentId: recipe?.parentId ?? null },
        crop: batch.crop,
        variety: batch.variety,
        plantCount: batch.plantCount,
        seedSource: seed,
        startedAt: new Date(batch.startedAt).toISOString(),
        yieldKg,
        qualityGrade,
        early,
        expectedHarvestAt: new Date(batch.expectedHarvestAt).toISOString(),
        harvestedAt,
        harvestedBy: actor.id,
      },
      record: {
        row: {
          id,
          batchId,
          farmId: batch.farmId,
          yieldKg,
          qualityGrade,
          notes: notes ?? null,
          harvestedAt,
          harvestedBy: actor.id,
          early,
          requestRef,
        },
      },
      events: [
        pendingEvent(
          batchHarvested,
          {
            batchId,
            harvestId: id,
            farmId: batch.farmId,
            crop: batch.crop,
            recipeId: batch.recipeId,
            plantId: seed.plantId,
            yieldKg,
            qualityGrade,
            early,
          },
          caller,
        ),
      ],
    };
    const claimed = await ctx.db.transaction(async (tx) => {
      const locked = await lockBatchRow(tx, batchId);
      if (!locked) throw notFound('Batch', batchId);
      const state = batchState(locked.status as BatchStatus, phases, new Date(locked.startedAt), now);
      const refused = harvestRefusal(state);
      if (refused) {
        // Harvested meanwhile: by this request's earlier attempt (answered below) or by another.
        const own = state === 'harvested' && (await findHarvest(tx, batchId));
        if (own && isOwnHarvest(own, requestRef)) return undefined;
        throw new AppError(refused.code, `Cannot harvest: ${refused.message}`, refused.details);
      }
      const intent = await recorder.intend(tx, write);
      if (!intent.fresh && !isOwnHarvest(intent.write.record.row, requestRef)) throw alreadyHarvested('harvesting');
      return intent.write;
    });
    if (claimed) await recorder.recordIntended(claimed, caller);
    // Stored now, but possibly by a concurrent request: only the request named on the row was recorded.
    const recorded = await findHarvest(ctx.db, batchId);
    if (!recorded || !isOwnHarvest(recorded, requestRef)) throw alreadyHarvested();
    return batchView(ctx, await requireBatch(ctx, batchId));
  });
