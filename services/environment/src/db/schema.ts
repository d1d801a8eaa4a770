import { outboxTable } from '@rootline/db';
import { sql } from 'drizzle-orm';
import { bigint, doublePrecision, index, integer, jsonb, pgSchema, text, timestamp } from 'drizzle-orm/pg-core';

export const environmentSchema = pgSchema('environment');

/** Every record as written: one observation of one plant in one or more categories. */
export const records = environmentSchema.table(
  'records',
  {
    id: text('id').primaryKey(),
    plantId: text('plant_id').notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true, mode: 'string' }).notNull(),
    recordedBy: text('recorded_by').notNull(),
    /** The categories of the record, as the contract's EnvironmentData. */
    data: jsonb('data').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'string' }).notNull(),
  },
  (t) => [index('records_plant_idx').on(t.plantId, t.recordedAt.desc(), t.id.desc())],
);

/**
 * One row per plant with records: who owns it and its species (as the plants service answered at the last write),
 * its current environment (the newest value of each category), and what is derived from it.
 */
export const plantEnvironments = environmentSchema.table(
  'plant_environments',
  {
    plantId: text('plant_id').primaryKey(),
    ownerId: text('owner_id').notNull(),
    /** Scientific name in lower case (see domain/ranges.ts speciesKey); null when the plant has none. */
    species: text('species'),
    commonName: text('common_name').notNull(),
    current: jsonb('current').notNull(),
    /** recordedAt of the value of each category in `current`, so an older record never overwrites a newer one. */
    categoryTimes: jsonb('category_times').notNull(),
    /** The similarity feature vector (domain/features.ts), null where a feature is missing. */
    features: jsonb('features').notNull(),
    healthScore: doublePrecision('health_score'),
    /** The analysed values (domain/measures.ts MEASURES order), null where not recorded. */
    measures: doublePrecision('measures').array().notNull().default(sql`'{}'::float8[]`),
    records: integer('records').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'string' }).notNull(),
    /**
     * The id of the transaction that last wrote the row: the similarity index of each replica reads the rows
     * written since its watermark (ADR 056).
     */
    writtenBy: bigint('written_by', { mode: 'number' }).notNull().default(sql`(pg_current_xact_id()::text::bigint)`),
  },
  (t) => [
    index('plant_environments_written_by_idx').on(t.writtenBy),
    index('plant_environments_species_idx').on(t.species),
  ],
);

export const outbox = outboxTable(environmentSchema);
