import { AppError, batchHarvest, batchHarvested, newId } from '@rootline/contracts';
import { pendingEvent } from '@rootline/db';
import { assertOwnerOrAdmin } from '@rootline/domain';
import { handle, ledgerTxId, type ServiceContext } from '@rootline/host';
import { findHarvest, type StoredSeedSource } from '../db/batches.repo.js';
import type { HarvestRecorder } from '../db/ledger.js';
import { findRecipeRow } from '../db/recipes.repo.js';
import { type BatchStatus, batchState, harvestRefusal, isEarlyHarvest, isOwnHarvest } from '../domain/batch-state.js';
import { batchPhases, batchView, requireBatch } from './batch.js';

/** A batch has one harvest: its id is the batch's own, so a retry names the same ledger transaction. */
export const harvestIdOf = (batchId: string) => `hvt_${batchId.slice(batchId.indexOf('_') + 1)}`;

const alreadyHarvested = () =>
  new AppError('DUPLICATE', 'Cannot harvest: the batch is already harvested', { reason: 'batch-harvested' });

/**
 * farm.batch.harvest: records the harvest on the ledger (`farm.harvest`, naming the batch, its recipe and its seed
 * source with the plant's block, so the ledger links the harvest into the plant's lineage), then stores it and
 * completes the batch in the recorder's statement, with the farm.harvest event.
 *
 * The harvest id is the batch's, so concurrent harvests of a batch are one ledger transaction and one stored row:
 * the first request's (its intent is inserted first; the others take its content over). The row keeps that
 * request's reference, and a request that finds another reference there answers 409 DUPLICATE: its harvest was
 * not recorded. A retry with the same Idempotency-Key has the same reference and is answered the harvest.
 *
 * An open batch may be harvested in any state; before the recipe's expected harvest date the harvest is recorded
 * as early (`early`, stored, on the ledger and in the event). A failed batch is refused (409 CONFLICT).
 */
export const harvestBatch = (ctx: ServiceContext, recorder: HarvestRecorder) =>
  handle(batchHarvest, async ({ batchId, yieldKg, qualityGrade, notes }, caller) => {
    const batch = await requireBatch(ctx, batchId);
    const actor = assertOwnerOrAdmin(caller, batch.ownerId);
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
    const state = batchState(batch.status as BatchStatus, phases, new Date(batch.startedAt), now);
    const refusal = harvestRefusal(state);
    if (refusal) {
      const code = state === 'harvested' ? 'DUPLICATE' : 'CONFLICT';
      throw new AppError(code, `Cannot harvest: ${refusal}`, { reason: `batch-${state}` });
    }
    const early = isEarlyHarvest(new Date(batch.expectedHarvestAt), now);
    const recipe = await findRecipeRow(ctx.db, batch.recipeId);
    const seed = batch.seedSource as StoredSeedSource;
    const harvestedAt = now.toISOString();
    await recorder.record(
      {
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
      },
      caller,
    );
    // Stored now, but possibly by a concurrent request: only the request named on the row was recorded.
    const recorded = await findHarvest(ctx.db, batchId);
    if (!recorded || !isOwnHarvest(recorded, requestRef)) throw alreadyHarvested();
    return batchView(ctx, await requireBatch(ctx, batchId));
  });
