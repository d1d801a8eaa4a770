import {
  AppError,
  type EnvironmentData,
  type EnvironmentRecord,
  environmentRecordAdd,
  environmentRecorded,
  environmentRecordList,
  paginate,
} from '@rootline/contracts';
import { actingUser, assertOwnerOrAdmin } from '@rootline/domain';
import { handle, type ServiceContext } from '@rootline/host';
import {
  findPlantEnvironment,
  findRecord,
  insertRecord,
  listRecords,
  lockPlant,
  type RecordRow,
  savePlantEnvironment,
} from '../db/environment.repo.js';
import { categoriesOf, mergeCurrent } from '../domain/current.js';
import { featureVector } from '../domain/features.js';
import { healthScore } from '../domain/health.js';
import { analysisMeasures } from '../domain/measures.js';
import { askPlants, environmentOf } from './plant-facts.js';

/** How far in the future a `recordedAt` may be: clocks of phones and sensors drift. */
const FUTURE_SLACK_MS = 5 * 60 * 1000;

const iso = (t: string) => new Date(t).toISOString();

function toRecord(row: RecordRow): EnvironmentRecord {
  return {
    id: row.id,
    plantId: row.plantId,
    recordedAt: iso(row.recordedAt),
    recordedBy: row.recordedBy,
    ...(row.data as EnvironmentData),
  };
}

/**
 * environment.record.add: one record for a plant, written only by its owner or an ADMIN (the owner as the plants
 * service answers now). The record, the plant's merged current environment with its derived health score and
 * feature vector, and `evt.environment.record.added` commit in one transaction.
 */
export const addRecord = (ctx: ServiceContext) =>
  handle(environmentRecordAdd, async (input, caller) => {
    const actor = actingUser(caller);
    const { plantId, recordedAt: at, ...data } = input;
    const categories = categoriesOf(data);
    if (categories.length === 0) {
      throw new AppError('VALIDATION_ERROR', 'A record needs at least one category (soil, climate, …)', {
        reason: 'no-category',
      });
    }
    const now = ctx.clock.now();
    const recordedAt = at ? iso(at) : now.toISOString();
    if (Date.parse(recordedAt) > now.getTime() + FUTURE_SLACK_MS) {
      throw new AppError('VALIDATION_ERROR', 'recordedAt: must not be in the future', {
        field: 'recordedAt',
        reason: 'in-future',
      });
    }
    const plant = await askPlants(ctx, caller, plantId);
    assertOwnerOrAdmin(caller, plant.ownerId);
    const id = ctx.newId('env', caller);
    return ctx.db.transaction(async (tx) => {
      await lockPlant(tx, plantId);
      // A retry of a write that committed (its answer lost) names the same record: answer it again.
      const done = caller.idempotencyRef ? await findRecord(tx, id) : undefined;
      if (done) return toRecord(done);
      const existing = await findPlantEnvironment(tx, plantId);
      const merged = mergeCurrent(existing?.current ?? {}, existing?.categoryTimes ?? {}, data, recordedAt);
      await insertRecord(tx, {
        id,
        plantId,
        recordedAt,
        recordedBy: actor.id,
        data,
        createdAt: now.toISOString(),
      });
      await savePlantEnvironment(tx, {
        plantId,
        ownerId: plant.ownerId,
        species: plant.species,
        commonName: plant.commonName,
        current: merged.current,
        categoryTimes: merged.times,
        features: featureVector(merged.current).map((v) => (Number.isNaN(v) ? null : v)),
        healthScore: healthScore(plantId, plant.species, merged.current).score,
        measures: analysisMeasures(merged.current),
        records: (existing?.records ?? 0) + 1,
        updatedAt: now.toISOString(),
      });
      await ctx.outbox.enqueue(tx, environmentRecorded, { recordId: id, plantId, recordedAt, categories }, caller);
      return { id, plantId, recordedAt, recordedBy: actor.id, ...data };
    });
  });

/** environment.record.list: the plant's current environment and a page of its records, newest first. */
export const listRecordHistory = (ctx: ServiceContext) =>
  handle(environmentRecordList, async ({ plantId, page, limit }, caller) => {
    const { row } = await environmentOf(ctx, ctx.db, caller, plantId);
    const { rows, total } = row ? await listRecords(ctx.db, plantId, page, limit) : { rows: [], total: 0 };
    return {
      items: rows.map(toRecord),
      pagination: paginate(page, limit, total),
      meta: { plantId, current: row?.current ?? {} },
    };
  });
