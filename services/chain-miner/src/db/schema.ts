import { outboxTable } from '@rootline/db';
import { bigint, doublePrecision, index, integer, pgSchema, text, timestamp } from 'drizzle-orm/pg-core';

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
  /** Transactions in this block and all before it (not hashed: a running total for statistics). */
  txTotal: bigint('tx_total', { mode: 'number' }).notNull().default(0),
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

/**
 * The shared, durable mempool: every instance writes the transactions it accepts here; the appender takes
 * them in arrival order and deletes them in the transaction that stores their block, so a transaction is
 * either waiting here or in exactly one block, whichever process dies.
 */
export const mempool = chain.table(
  'mempool',
  {
    id: text('id').primaryKey(),
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    type: text('type').notNull(),
    payload: text('payload').notNull(),
    payloadHash: text('payload_hash').notNull(),
    timestamp: text('timestamp').notNull(),
  },
  (t) => [index('mempool_seq_idx').on(t.seq)],
);

/**
 * The appender lease: one row naming the instance allowed to append blocks until `expires_at` (database
 * time). Every block is stored in a transaction that renews it, so an instance that lost it can never append.
 * The mining figures are the holder's, written when it renews.
 */
export const appenderLease = chain.table('appender_lease', {
  name: text('name').primaryKey(),
  holder: text('holder').notNull(),
  process: text('process').notNull(),
  term: bigint('term', { mode: 'number' }).notNull(),
  acquiredAt: timestamp('acquired_at', { withTimezone: true }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  hashes: bigint('hashes', { mode: 'number' }).notNull().default(0),
  hashRate: doublePrecision('hash_rate').notNull().default(0),
  helpers: integer('helpers').notNull().default(0),
});

export const outbox = outboxTable(chain);
