import {
  AppError,
  batchReadingsList,
  batchReadingsRecord,
  FARM_READING_METRICS,
  type FarmDeviation,
  type FarmReadingPoint,
  farmAlerted,
  type RecipePhaseName,
  realtimePublished,
  type TimedFarmReading,
} from '@rootline/contracts';
import { assertOwnerOrAdmin } from '@rootline/domain';
import { handle, type ServiceContext } from '@rootline/host';
import { findFarmRow } from '../db/farms.repo.js';
import {
  insertDeviations,
  insertNewReadings,
  latestDeviations,
  latestReadings,
  type ReadingRow,
} from '../db/readings.repo.js';
import { phaseAt } from '../domain/batch-state.js';
import { deviationsOf, targetBands } from '../domain/compliance.js';
import { firstOfEach, readingFingerprint } from '../domain/readings.js';
import { batchPhases, requireBatch } from './batch.js';
import { assertOperator } from './farm.js';

/** A reading this far ahead of the service clock, or before its batch's start, is refused: a sensor with a wrong clock. */
const FUTURE_SLACK_MS = 5 * 60_000;
/** Deviations carried by one farm.alert event; the count says how many there were. */
const ALERT_DEVIATIONS = 20;

/**
 * farm.batch.record-readings: readings of an open batch, each compared with the targets of the recipe phase at its
 * time. A reading already stored for the batch (same instant, same values: a retried or resent request) is not
 * stored again, nor are its deviations, so counts, shares within target and means see it once; concurrent copies
 * are settled by the unique index. The readings, the deviations of those stored now and one farm.alert event
 * (when there are some) commit in one transaction: the request is stored all or nothing.
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
    const now = ctx.clock.now();
    const latest = now.getTime() + FUTURE_SLACK_MS;
    const rows: (ReadingRow & { deviations: FarmDeviation[] })[] = [];
    for (const [i, sent] of readings.entries()) {
      // A reading without its time was taken as it is received.
      const r: TimedFarmReading = { ...sent, at: sent.at ?? now.toISOString() };
      const at = new Date(r.at);
      if (Number.isNaN(at.getTime())) {
        throw new AppError('VALIDATION_ERROR', `readings/${i}/at: not a valid time`, {
          field: `readings.${i}.at`,
          reason: 'invalid-time',
        });
      }
      if (at.getTime() > latest) {
        throw new AppError('VALIDATION_ERROR', `readings/${i}/at: the reading is in the future`, {
          field: `readings.${i}.at`,
          reason: 'in-future',
        });
      }
      if (at.getTime() < startedAt.getTime() - FUTURE_SLACK_MS) {
        throw new AppError(
          'VALIDATION_ERROR',
          `readings/${i}/at: before the batch started (${startedAt.toISOString()})`,
          {
            field: `readings.${i}.at`,
            reason: 'before-start',
          },
        );
      }
      const devs = deviationsOf(r, phaseAt(phases, startedAt, at).span.targets);
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
        fingerprint: readingFingerprint(r),
        deviations: devs,
      });
    }
    const distinct = firstOfEach(rows, (r) => r.fingerprint);
    const plain = distinct.map(({ deviations: _, ...row }) => row);
    if (distinct.every((r) => r.deviations.length === 0)) {
      // No deviations: one INSERT, atomic alone (the hot path, ADR 050).
      const fresh = await insertNewReadings(ctx.db, plain);
      if (fresh.size > 0) await announceReadings(ctx, batch.farmId, batchId, fresh.size);
      return { accepted: fresh.size, duplicates: rows.length - fresh.size, inTarget: fresh.size, deviations: [] };
    }
    const farm = await findFarmRow(ctx.db, batch.farmId);
    const stored = await ctx.db.transaction(async (tx) => {
      const fresh = await insertNewReadings(tx, plain);
      const storedRows = distinct.filter((r) => fresh.has(r.fingerprint));
      const found = storedRows.flatMap((r) => r.deviations);
      if (found.length > 0) {
        await insertDeviations(
          tx,
          found.map((d) => ({ batchId, ...d })),
        );
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
      }
      return storedRows;
    });
    if (stored.length > 0) await announceReadings(ctx, batch.farmId, batchId, stored.length);
    return {
      accepted: stored.length,
      duplicates: rows.length - stored.length,
      inTarget: stored.filter((r) => r.inTarget).length,
      deviations: stored.flatMap((r) => r.deviations),
    };
  });

/**
 * Tells the farm's live room that readings were stored (event `farm.readings`: batch id and count), so an open batch
 * page redraws its charts. Readings are operational data, not public events: the room is its owner's and ADMINs'.
 * A lost signal only loses the live copy; the readings are stored.
 */
async function announceReadings(ctx: ServiceContext, farmId: string, batchId: string, accepted: number) {
  try {
    await ctx.bus.broadcast(realtimePublished.subject, {
      room: `farm:${farmId}`,
      event: 'farm.readings',
      data: { farmId, batchId, accepted },
      sentAt: ctx.clock.now().toISOString(),
    });
  } catch (err) {
    ctx.log.warn({ err }, 'readings not announced live');
  }
}

/** Deviations one answer lists. */
const LISTED_ALERTS = 100;

/**
 * farm.batch.list-readings: the latest readings of a batch, each with the phase it was compared under and that
 * phase's bands (open upper bound: null), and the latest deviations. Operational data: owner or ADMIN.
 */
export const listReadings = (ctx: ServiceContext) =>
  handle(batchReadingsList, async ({ batchId, limit }, caller) => {
    const batch = await requireBatch(ctx, batchId);
    assertOperator(caller, batch.ownerId);
    const phases = await batchPhases(ctx, batch.recipeId);
    const startedAt = new Date(batch.startedAt);
    const [{ rows, total }, alerts] = await Promise.all([
      latestReadings(ctx.db, batchId, limit),
      latestDeviations(ctx.db, batchId, LISTED_ALERTS),
    ]);
    const items: FarmReadingPoint[] = rows.map((r) => {
      const at = new Date(r.at);
      const span = phaseAt(phases, startedAt, at).span;
      const bands = targetBands(span.targets);
      const point = { at: at.toISOString(), inTarget: r.inTarget, phase: span.phase as RecipePhaseName, targets: {} };
      const targets: FarmReadingPoint['targets'] = {};
      const values: Record<string, number | null> = {};
      for (const m of FARM_READING_METRICS) {
        values[m] = r[m];
        const band = bands[m];
        targets[m] = { min: band.min, max: Number.isFinite(band.max) ? band.max : null };
      }
      return { ...point, ...values, targets } as FarmReadingPoint;
    });
    return {
      readings: items,
      total,
      alerts: alerts.map((d) => ({
        at: new Date(d.at).toISOString(),
        metric: d.metric,
        value: d.value,
        min: d.min,
        max: d.max,
      })),
    };
  });
