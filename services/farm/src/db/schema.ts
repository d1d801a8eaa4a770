import { ledgerIntentsTable, outboxTable, scheduledJobsTable } from '@rootline/db';
import { sql } from 'drizzle-orm';
import {
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgSchema,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

export const farmSchema = pgSchema('farm');

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'string' });

export const farms = farmSchema.table(
  'farms',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    location: jsonb('location').notNull(),
    floorAreaM2: doublePrecision('floor_area_m2').notNull(),
    levels: integer('levels').notNull(),
    lightingSystem: text('lighting_system').notNull(),
    climateSystem: text('climate_system').notNull(),
    ownerId: text('owner_id').notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [index('farms_owner_idx').on(t.ownerId)],
);

export const zones = farmSchema.table(
  'zones',
  {
    id: text('id').primaryKey(),
    farmId: text('farm_id').notNull(),
    name: text('name').notNull(),
    level: integer('level').notNull(),
    areaM2: doublePrecision('area_m2').notNull(),
    growingMethod: text('growing_method').notNull(),
    capacity: integer('capacity').notNull(),
    setpoints: jsonb('setpoints').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [index('zones_farm_idx').on(t.farmId)],
);

export const recipes = farmSchema.table(
  'recipes',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    crop: text('crop').notNull(),
    version: integer('version').notNull(),
    parentId: text('parent_id'),
    authorId: text('author_id'),
    /** Phases with their targets, in order (contract RecipePhaseInput[]). */
    phases: jsonb('phases').notNull(),
    sources: jsonb('sources').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [index('recipes_crop_idx').on(t.crop, t.id)],
);

export const batches = farmSchema.table(
  'batches',
  {
    id: text('id').primaryKey(),
    farmId: text('farm_id').notNull(),
    zoneId: text('zone_id').notNull(),
    recipeId: text('recipe_id').notNull(),
    crop: text('crop').notNull(),
    variety: text('variety').notNull(),
    plantCount: integer('plant_count').notNull(),
    /** The stored seed source: type, plant id, name and block, or seed lot and supplier. */
    seedSource: jsonb('seed_source').notNull(),
    /** open, harvested or failed; the phase states of an open batch follow from its age. */
    status: text('status').notNull(),
    startedAt: at('started_at').notNull(),
    expectedHarvestAt: at('expected_harvest_at').notNull(),
    closedAt: at('closed_at'),
    failureReason: text('failure_reason'),
    /** Set by the harvest-ready job when it announced the batch. */
    readyNotifiedAt: at('ready_notified_at'),
    /** The farm's owner, copied at start (farms do not change hands): writes to the batch check it. */
    ownerId: text('owner_id').notNull(),
    startedBy: text('started_by').notNull(),
  },
  (t) => [
    index('batches_farm_idx').on(t.farmId, t.startedAt),
    index('batches_zone_open_idx').on(t.zoneId, t.status),
    index('batches_ready_idx').on(t.expectedHarvestAt).where(sql`status = 'open' and ready_notified_at is null`),
  ],
);

export const harvests = farmSchema.table('harvests', {
  id: text('id').primaryKey(),
  batchId: text('batch_id').notNull().unique(),
  farmId: text('farm_id').notNull(),
  yieldKg: doublePrecision('yield_kg').notNull(),
  qualityGrade: text('quality_grade').notNull(),
  notes: text('notes'),
  harvestedAt: at('harvested_at').notNull(),
  harvestedBy: text('harvested_by').notNull(),
  /** Recorded before the batch's expected harvest date. */
  early: boolean('early').notNull().default(false),
  /**
   * The request that recorded the harvest (its idempotency reference, or a fresh id without one): a concurrent
   * harvest of the batch that finds another request's reference here was not recorded and answers 409.
   */
  requestRef: text('request_ref'),
  blockIndex: integer('block_index').notNull(),
  blockHash: text('block_hash').notNull(),
  txId: text('tx_id').notNull(),
});

/**
 * Environment readings: the hot table (ADR 050). No primary key and one index only, so a batch of readings is one
 * cheap multi-row INSERT; `real` columns (4 bytes) are precise enough for sensors. Analytics count from the rollups
 * below (ADR 159), so no index by farm is kept (ADR 163).
 */
export const readings = farmSchema.table(
  'readings',
  {
    batchId: text('batch_id').notNull(),
    farmId: text('farm_id').notNull(),
    at: at('at').notNull(),
    temperatureC: real('temperature_c'),
    humidityPct: real('humidity_pct'),
    co2Ppm: real('co2_ppm'),
    ppfd: real('ppfd'),
    ecMsCm: real('ec_ms_cm'),
    ph: real('ph'),
    waterTemperatureC: real('water_temperature_c'),
    dissolvedOxygenMgL: real('dissolved_oxygen_mg_l'),
    inTarget: boolean('in_target').notNull(),
    /**
     * Digest of the instant and the values (`readingFingerprint`): a reading sent again is stored once. Null for
     * readings stored before fingerprints, which no new reading conflicts with.
     */
    fingerprint: text('fingerprint'),
  },
  (t) => [
    // Also the index of a batch's readings by time (its leading columns).
    uniqueIndex('readings_batch_reading_key').on(t.batchId, t.at, t.fingerprint),
  ],
);

/**
 * Readings per batch: how many, how many within target, the first and last instant. Kept by the statement that
 * stores readings (ADR 159), so analytics count a batch whose readings all fall in the period from this one row.
 */
export const readingTotals = farmSchema.table(
  'reading_totals',
  {
    batchId: text('batch_id').primaryKey(),
    farmId: text('farm_id').notNull(),
    readings: integer('readings').notNull(),
    inTarget: integer('in_target').notNull(),
    firstAt: at('first_at').notNull(),
    lastAt: at('last_at').notNull(),
  },
  (t) => [index('reading_totals_farm_idx').on(t.farmId, t.firstAt)],
);

/**
 * Readings per batch per UTC day, kept with `readingTotals`: a batch that straddles a period's bound is counted
 * from its whole days in the period and its raw readings of the partial days at either end.
 */
export const readingDays = farmSchema.table(
  'reading_days',
  {
    batchId: text('batch_id').notNull(),
    /** Midnight UTC of the day. */
    day: at('day').notNull(),
    readings: integer('readings').notNull(),
    inTarget: integer('in_target').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.batchId, t.day] }),
    // With the counts, so a period's days are read from the index alone (index-only scan, no heap page per row).
    index('reading_days_counts_idx').on(t.batchId, t.day, t.readings, t.inTarget),
  ],
);

export const deviations = farmSchema.table(
  'deviations',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    batchId: text('batch_id').notNull(),
    at: at('at').notNull(),
    metric: text('metric').notNull(),
    value: doublePrecision('value').notNull(),
    min: doublePrecision('min').notNull(),
    max: doublePrecision('max').notNull(),
  },
  (t) => [index('deviations_batch_idx').on(t.batchId, t.at)],
);

/** Scheduled jobs shared by the replicas: one row each, claimed by one replica per run. */
export const jobs = scheduledJobsTable(farmSchema);

export const outbox = outboxTable(farmSchema);

/** Harvests being recorded on the ledger (see the recorder). */
export const ledgerIntents = ledgerIntentsTable(farmSchema);
