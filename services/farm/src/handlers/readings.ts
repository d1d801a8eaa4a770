import { AppError, batchReadingsRecord, type FarmDeviation, farmAlerted } from '@rootline/contracts';
import { assertOwnerOrAdmin, handle, type ServiceContext } from '@rootline/host';
import { findFarmRow } from '../db/farms.repo.js';
import { deviationsInsert, type ReadingRow, readingsInsert, storeReadings } from '../db/readings.repo.js';
import { phaseAt } from '../domain/batch-state.js';
import { deviationsOf } from '../domain/compliance.js';
import { batchPhases, requireBatch } from './batch.js';

/** A reading this far ahead of the service clock is refused: a sensor with a wrong clock. */
const FUTURE_SLACK_MS = 5 * 60_000;
/** Deviations carried by one farm.alert event; the count says how many there were. */
const ALERT_DEVIATIONS = 20;

/**
 * farm.batch.record-readings: readings of an open batch, each compared with the targets of the recipe phase at its
 * time. Without deviations the readings are one INSERT (atomic alone); with some, the readings, the deviations and
 * one farm.alert event commit in one transaction. Either way the request is stored all or nothing.
 */
export const recordReadings = (ctx: ServiceContext) =>
  handle(batchReadingsRecord, async ({ batchId, readings }, caller) => {
    const batch = await requireBatch(ctx, batchId);
    assertOwnerOrAdmin(caller, batch.ownerId);
    if (batch.status !== 'open') {
      throw new AppError('VALIDATION_ERROR', `The batch is ${batch.status}; it takes no more readings`, {
        reason: 'batch-closed',
      });
    }
    const phases = await batchPhases(ctx, batch.recipeId);
    const startedAt = new Date(batch.startedAt);
    const latest = ctx.clock.now().getTime() + FUTURE_SLACK_MS;
    const rows: ReadingRow[] = [];
    const found: FarmDeviation[] = [];
    for (const [i, r] of readings.entries()) {
      const at = new Date(r.at);
      if (Number.isNaN(at.getTime())) {
        throw new AppError('VALIDATION_ERROR', `readings/${i}/at: not a valid time`, { field: `readings.${i}.at` });
      }
      if (at.getTime() > latest) {
        throw new AppError('VALIDATION_ERROR', `readings/${i}/at: the reading is in the future`, {
          field: `readings.${i}.at`,
        });
      }
      const devs = deviationsOf(r, phaseAt(phases, startedAt, at).span.targets);
      found.push(...devs);
      rows.push({
        batchId,
        farmId: batch.farmId,
        at: at.toISOString(),
        temperatureC: r.temperatureC ?? null,
        humidityPct: r.humidityPct ?? null,
        co2Ppm: r.co2Ppm ?? null,
        ppfd: r.ppfd ?? null,
        ecMsCm: r.ecMsCm ?? null,
        ph: r.ph ?? null,
        waterTemperatureC: r.waterTemperatureC ?? null,
        dissolvedOxygenMgL: r.dissolvedOxygenMgL ?? null,
        inTarget: devs.length === 0,
      });
    }
    if (found.length === 0) {
      await storeReadings(ctx.db, rows);
    } else {
      const farm = await findFarmRow(ctx.db, batch.farmId);
      await ctx.db.transaction(async (tx) => {
        await tx.execute(readingsInsert(rows));
        await tx.execute(deviationsInsert(found.map((d) => ({ batchId, ...d }))));
        await ctx.outbox.enqueue(
          tx,
          farmAlerted,
          {
            batchId,
            farmId: batch.farmId,
            farmName: farm?.name ?? batch.farmId,
            ownerId: batch.ownerId,
            deviationCount: found.length,
            deviations: found.slice(0, ALERT_DEVIATIONS),
          },
          caller,
        );
      });
    }
    return { accepted: rows.length, inTarget: rows.filter((r) => r.inTarget).length, deviations: found };
  });
