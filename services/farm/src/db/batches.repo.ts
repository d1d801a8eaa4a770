import {
  type CropBatch,
  FARM_READING_METRICS,
  type FarmCrop,
  type FarmReadingMetric,
  type HARVEST_QUALITY_GRADES,
} from '@rootline/contracts';
import type { Db } from '@rootline/db';
import { and, count, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import { type BatchStatus, batchState, phaseAt } from '../domain/batch-state.js';
import type { StoredPhase } from './recipes.repo.js';
import { batches, harvests, readings } from './schema.js';

export type BatchRow = typeof batches.$inferSelect;
export type HarvestRow = typeof harvests.$inferSelect;

/** A batch's seed source as stored. */
export interface StoredSeedSource {
  type: 'plant' | 'seed-lot';
  plantId: string | null;
  plantName: string | null;
  plantBlockHash: string | null;
  seedLot: string | null;
  supplier: string | null;
}

export async function insertBatch(db: Db, row: typeof batches.$inferInsert): Promise<void> {
  await db.insert(batches).values(row);
}

export async function findBatchRow(db: Db, id: string): Promise<BatchRow | undefined> {
  const [row] = await db.select().from(batches).where(eq(batches.id, id)).limit(1);
  return row;
}

export async function findHarvest(db: Db, batchId: string): Promise<HarvestRow | undefined> {
  const [row] = await db.select().from(harvests).where(eq(harvests.batchId, batchId)).limit(1);
  return row;
}

/**
 * The batch row, locked until the end of the transaction `tx`: the state changes of a batch (harvest, fail) each
 * take it before they check the state they leave, so they are decided one after the other. It is the lock an UPDATE
 * takes (not FOR UPDATE), so it does not wait for a harvest row's foreign-key check on the batch: the recorder's
 * store statement holds that while it waits to complete the batch, and the two would deadlock.
 */
export async function lockBatchRow(tx: Db, id: string): Promise<BatchRow | undefined> {
  const [row] = await tx.select().from(batches).where(eq(batches.id, id)).limit(1).for('no key update');
  return row;
}

/** Closes an open batch as failed; undefined when it was not open. */
export async function failBatch(db: Db, id: string, reason: string, at: Date): Promise<BatchRow | undefined> {
  const [row] = await db
    .update(batches)
    .set({ status: 'failed', failureReason: reason, closedAt: at.toISOString() })
    .where(and(eq(batches.id, id), eq(batches.status, 'open')))
    .returning();
  return row;
}

/**
 * The statement that completes harvested batches (run with their harvest rows by the recorder). A harvest claimed
 * its open batch before it went to the ledger (its intent, written under the batch's lock), and a fail refuses a
 * batch with a harvest intent, so the batch is open here; the ledger holds the harvest by then, so it is final.
 */
export function harvestedUpdate(rows: readonly { batchId: string; harvestedAt: string }[]): SQL {
  return sql`update ${batches} set status = 'harvested', closed_at = r."harvestedAt", failure_reason = null
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r("batchId" text, "harvestedAt" timestamptz)
    where ${batches.id} = r."batchId"`;
}

type Summary = CropBatch['readings'];

/** Count, share within target, last time and mean of each metric of a batch's readings. */
export async function readingsSummary(db: Db, batchId: string): Promise<Summary> {
  const means: Record<string, SQL<number | null>> = {};
  for (const m of FARM_READING_METRICS) means[m] = sql<number | null>`avg(${readings[m]})::float8`;
  const [row] = await db
    .select({
      count: sql<number>`count(*)::int`,
      inTarget: sql<number>`count(*) filter (where ${readings.inTarget})::int`,
      lastAt: sql<string | null>`max(${readings.at})`,
      ...means,
    })
    .from(readings)
    .where(eq(readings.batchId, batchId));
  const r = row as unknown as Record<FarmReadingMetric, number | null> & {
    count: number;
    inTarget: number;
    lastAt: string | null;
  };
  const round = (v: number | null) => (v === null ? null : Math.round(Number(v) * 100) / 100);
  return {
    count: r.count,
    inTarget: r.inTarget,
    compliance: r.count > 0 ? Math.round((r.inTarget / r.count) * 10_000) / 10_000 : null,
    lastAt: r.lastAt ? new Date(r.lastAt).toISOString() : null,
    mean: Object.fromEntries(FARM_READING_METRICS.map((m) => [m, round(r[m])])),
  };
}

/** The batch as the API shows it at `now`: state, phase and targets from its recipe, readings, harvest. */
export function toBatch(
  row: BatchRow,
  phases: readonly StoredPhase[],
  now: Date,
  summary: Summary,
  harvest: HarvestRow | undefined,
): CropBatch {
  const startedAt = new Date(row.startedAt);
  const state = batchState(row.status as BatchStatus, phases, startedAt, now);
  const open = row.status === 'open';
  const current = open ? phaseAt(phases, startedAt, now) : undefined;
  return {
    id: row.id,
    farmId: row.farmId,
    zoneId: row.zoneId,
    recipeId: row.recipeId,
    crop: row.crop as FarmCrop,
    variety: row.variety,
    plantCount: row.plantCount,
    seedSource: row.seedSource as StoredSeedSource,
    state,
    phase: current?.span.phase ?? null,
    daysInPhase: current?.daysInPhase ?? null,
    targets: current?.span.targets ?? null,
    startedAt: startedAt.toISOString(),
    expectedHarvestAt: new Date(row.expectedHarvestAt).toISOString(),
    closedAt: row.closedAt ? new Date(row.closedAt).toISOString() : null,
    failureReason: row.failureReason,
    readings: summary,
    harvest: harvest
      ? {
          id: harvest.id,
          yieldKg: harvest.yieldKg,
          qualityGrade: harvest.qualityGrade as (typeof HARVEST_QUALITY_GRADES)[number],
          notes: harvest.notes,
          harvestedAt: new Date(harvest.harvestedAt).toISOString(),
          early: harvest.early,
          block: { index: harvest.blockIndex, hash: harvest.blockHash, txId: harvest.txId },
        }
      : null,
  };
}

/**
 * Marks open batches whose expected harvest date has come as announced, at most `limit`, and returns them. Rows
 * another transaction holds are skipped, so two callers never announce the same batch.
 */
export async function markReady(db: Db, now: Date, limit: number): Promise<BatchRow[]> {
  const at = now.toISOString();
  const due = db
    .select({ id: batches.id })
    .from(batches)
    .where(and(eq(batches.status, 'open'), isNull(batches.readyNotifiedAt), sql`${batches.expectedHarvestAt} <= ${at}`))
    .orderBy(batches.expectedHarvestAt)
    .limit(limit)
    .for('update', { skipLocked: true });
  return db.update(batches).set({ readyNotifiedAt: at }).where(inArray(batches.id, due)).returning();
}

/** A page of a farm's batches, newest first, and how many it has. */
export async function farmBatches(db: Db, farmId: string, offset: number, limit: number) {
  const [rows, [c]] = await Promise.all([
    db
      .select()
      .from(batches)
      .where(eq(batches.farmId, farmId))
      .orderBy(desc(batches.startedAt), desc(batches.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(batches).where(eq(batches.farmId, farmId)),
  ]);
  return { rows, total: Number(c?.n ?? 0) };
}
