import { sql } from 'drizzle-orm';
import { index, integer, jsonb, type PgSchema, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The `ledger_intents` table in a service's schema (write-ahead intents of a ledger recorder). Export it from the
 * service's `schema.ts` so drizzle-kit generates it with the service's migrations. A row is written before its
 * transaction is submitted to the ledger and holds everything needed to finish the write; it is deleted in the
 * statement that stores the write's rows and events. A row left behind (the process died, or the store failed)
 * is finished by the recorder's recovery sweep, or marked failed after too many failed stores.
 */
export function ledgerIntentsTable(schema: PgSchema) {
  return schema.table(
    'ledger_intents',
    {
      /** The ledger transaction id, chosen by the submitter (derived from the record's id). */
      txId: text('tx_id').primaryKey(),
      txType: text('tx_type').notNull(),
      payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
      /** What the recorder's `store` turns into rows once the receipt is known. */
      record: jsonb('record').$type<unknown>().notNull(),
      /** The events committed with the rows: subject, payload and call context of each. */
      events: jsonb('events').$type<unknown[]>().notNull(),
      createdAt: timestamp('created_at', { withTimezone: true, mode: 'string' }).notNull(),
      /** Failed attempts to store the write once its receipt was known. */
      attempts: integer('attempts').notNull().default(0),
      /** A recovery sweep holds the row until then (replicas skip it). */
      claimedUntil: timestamp('claimed_until', { withTimezone: true, mode: 'string' }),
      /** Set when the write was given up (stores kept failing): kept for an operator, counted in the status. */
      failedAt: timestamp('failed_at', { withTimezone: true, mode: 'string' }),
      lastError: text('last_error'),
    },
    (t) => [index('ledger_intents_open_idx').on(t.createdAt).where(sql`"failed_at" is null`)],
  );
}

/** A service's intents table, as made by `ledgerIntentsTable`. */
export type LedgerIntentsTable = ReturnType<typeof ledgerIntentsTable>;
