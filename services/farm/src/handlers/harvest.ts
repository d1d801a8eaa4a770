import { AppError, batchHarvest, batchHarvested } from '@rootline/contracts';
import { pendingEvent } from '@rootline/db';
import { assertOwnerOrAdmin, handle, ledgerTxId, type ServiceContext } from '@rootline/host';
import { findHarvest, type StoredSeedSource } from '../db/batches.repo.js';
import { findRecipeRow } from '../db/recipes.repo.js';
import { type BatchStatus, batchState, harvestRefusal } from '../domain/batch-state.js';
import type { HarvestRecorder } from '../recorder.js';
import { batchPhases, batchView, requireBatch } from './batch.js';

/** A batch has one harvest: its id is the batch's own, so a retry names the same ledger transaction. */
export const harvestIdOf = (batchId: string) => `hvt_${batchId.slice(batchId.indexOf('_') + 1)}`;

/**
 * farm.batch.harvest: records the harvest on the ledger (`farm.harvest`, naming the batch, its recipe and its seed
 * source with the plant's block, so the ledger links the harvest into the plant's lineage), then stores it and
 * completes the batch in the recorder's statement, with the farm.harvest event.
 */
export const harvestBatch = (ctx: ServiceContext, recorder: HarvestRecorder) =>
  handle(batchHarvest, async ({ batchId, yieldKg, qualityGrade, notes }, caller) => {
    const batch = await requireBatch(ctx, batchId);
    const actor = assertOwnerOrAdmin(caller, batch.ownerId);
    const id = harvestIdOf(batchId);
    // A retry of a recorded harvest is answered from what is stored.
    if (caller.idempotencyRef && (await findHarvest(ctx.db, batchId))) {
      return batchView(ctx, await requireBatch(ctx, batchId));
    }
    const phases = await batchPhases(ctx, batch.recipeId);
    const now = ctx.clock.now();
    const state = batchState(batch.status as BatchStatus, phases, new Date(batch.startedAt), now);
    const refusal = harvestRefusal(state);
    if (refusal) {
      const code = state === 'germinating' ? 'VALIDATION_ERROR' : 'DUPLICATE';
      throw new AppError(code, `Cannot harvest: ${refusal}`, { reason: `batch-${state}` });
    }
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
            },
            caller,
          ),
        ],
      },
      caller,
    );
    return batchView(ctx, await requireBatch(ctx, batchId));
  });
