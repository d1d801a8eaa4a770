import { outboxTable } from '@rootline/db';
import { bigint, index, integer, pgSchema, text } from 'drizzle-orm/pg-core';

export const chain = pgSchema('chain');

/** Mined blocks; the unique index makes a fork impossible: two blocks can never share a height. */
export const blocks = chain.table('blocks', {
  index: integer('index').primaryKey(),
  hash: text('hash').notNull().unique(),
  previousHash: text('previous_hash').notNull(),
  merkleRoot: text('merkle_root').notNull(),
  // Kept as the exact string that was hashed, so re-verification never depends on date formatting.
  timestamp: text('timestamp').notNull(),
  difficulty: integer('difficulty').notNull(),
  nonce: bigint('nonce', { mode: 'number' }).notNull(),
  txCount: integer('tx_count').notNull(),
});

export const transactions = chain.table(
  'transactions',
  {
    id: text('id').primaryKey(),
    blockIndex: integer('block_index')
      .notNull()
      .references(() => blocks.index),
    position: integer('position').notNull(),
    type: text('type').notNull(),
    // Canonical JSON text: the exact bytes behind payload_hash.
    payload: text('payload').notNull(),
    payloadHash: text('payload_hash').notNull(),
    timestamp: text('timestamp').notNull(),
  },
  (t) => [index('transactions_block_idx').on(t.blockIndex, t.position)],
);

export const outbox = outboxTable(chain);
