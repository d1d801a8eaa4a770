import { outboxTable } from '@rootline/db';
import { doublePrecision, index, integer, pgSchema, text, timestamp } from 'drizzle-orm/pg-core';

export const plantsSchema = pgSchema('plants');

export const plants = plantsSchema.table(
  'plants',
  {
    id: text('id').primaryKey(),
    commonName: text('common_name').notNull(),
    scientificName: text('scientific_name'),
    latitude: doublePrecision('latitude').notNull(),
    longitude: doublePrecision('longitude').notNull(),
    city: text('city'),
    country: text('country'),
    ownerId: text('owner_id').notNull(),
    ownerName: text('owner_name').notNull(),
    generation: integer('generation').notNull().default(0),
    parentId: text('parent_id'),
    blockIndex: integer('block_index').notNull(),
    blockHash: text('block_hash').notNull(),
    txId: text('tx_id').notNull(),
    registeredAt: timestamp('registered_at', { withTimezone: true, mode: 'string' }).notNull(),
    registeredBy: text('registered_by'),
  },
  (t) => [index('plants_owner_idx').on(t.ownerId), index('plants_parent_idx').on(t.parentId)],
);

export const outbox = outboxTable(plantsSchema);
