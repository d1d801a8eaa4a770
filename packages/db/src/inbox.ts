import { lt, sql } from 'drizzle-orm';
import { getTableConfig, type PgSchema, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { insertFromJson } from './json-rows.js';
import { executePrepared, executeRows } from './prepared.js';
import type { Database, Db, DbLogger } from './types.js';

/**
 * The `inbox` table in a service's schema: one row per event a consumer of the service has applied. Export it
 * from the service's `schema.ts` (beside `outboxTable`) so drizzle-kit generates it with the service's migrations.
 */
export function inboxTable(schema: PgSchema) {
  return schema.table(
    'inbox',
    {
      /** The durable consumer (`<service>-<durable>`); one event may be applied once by each consumer. */
      consumer: text('consumer').notNull(),
      /** The event id (`evt_…`). */
      eventId: text('event_id').notNull(),
      processedAt: timestamp('processed_at', { withTimezone: true }).notNull().defaultNow(),
    },
    (t) => [primaryKey({ name: 'inbox_pkey', columns: [t.consumer, t.eventId] })],
  );
}

/** A service's inbox table, as made by `inboxTable`. */
export type InboxTable = ReturnType<typeof inboxTable>;

export interface InboxOptions {
  database: Database;
  table: InboxTable;
  log: DbLogger;
  /**
   * How long applied event ids are kept (default 30 days). Keep it well beyond the longest time an event can be
   * delivered again: the stream's maximum age, and an outbox row re-published after the bus was down.
   */
  retentionMs?: number;
}

/** Applies each event at most once per consumer: the effect and the record of the event id commit together. */
export interface Inbox {
  /**
   * Runs `fn` in a transaction that first records `(consumer, eventId)`; if the pair is already recorded the
   * event was applied before, `fn` does not run and `false` is returned. `fn`'s writes (and any
   * `outbox.enqueue` of follow-up events) must go through the `tx` it is given, so they commit with the
   * record, or roll back with it when `fn` throws (the event is then delivered again).
   */
  processOnce(consumer: string, eventId: string, fn: (tx: Db) => Promise<void>): Promise<boolean>;
  /**
   * The batched `processOnce`: one transaction records every `(consumer, eventId)` pair and runs `fn` with the ids
   * not recorded before (in the order given, each once), unless there are none. Returns those ids. Whatever `fn`
   * writes through `tx` commits with all the records, or nothing does.
   */
  processBatch(
    consumer: string,
    eventIds: readonly string[],
    fn: (fresh: ReadonlySet<string>, tx: Db) => Promise<void>,
  ): Promise<ReadonlySet<string>>;
  /** Deletes records older than the retention; returns how many. */
  prune(): Promise<number>;
  /** Whether the consumer has applied the event (for tests and tools). */
  has(consumer: string, eventId: string): Promise<boolean>;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Creates the inbox of one service table. On PostgreSQL a concurrent second delivery of the same event waits on
 * the first one's uncommitted row: it then finds the row (and skips) or, if the first rolled back, applies it.
 */
export function createInbox(opts: InboxOptions): Inbox {
  const { database, table, log } = opts;
  const retentionMs = opts.retentionMs ?? 30 * DAY_MS;
  const name = `${getTableConfig(table).schema ?? 'public'}.inbox`;

  return {
    processOnce(consumer, eventId, fn) {
      return database.db.transaction(async (tx) => {
        const fresh = await tx
          .insert(table)
          .values({ consumer, eventId })
          .onConflictDoNothing()
          .returning({ eventId: table.eventId });
        if (fresh.length === 0) {
          log.debug({ consumer, eventId, inbox: name }, 'event already applied; skipped');
          return false;
        }
        await fn(tx);
        return true;
      });
    },

    processBatch(consumer, eventIds, fn) {
      // Sorted, so two transactions recording overlapping ids take their row locks in the same order.
      const ids = [...new Set(eventIds)].sort();
      if (ids.length === 0) return Promise.resolve(new Set<string>());
      return database.db.transaction(async (tx) => {
        // The ids as one JSON parameter: one prepared statement whatever the batch size.
        const rows = await executePrepared<{ eventId: string }>(
          tx,
          sql`${insertFromJson(
            table,
            ids.map((eventId) => ({ consumer, eventId })),
          )} on conflict do nothing returning ${sql.identifier(table.eventId.name)} as "eventId"`,
        );
        const fresh = new Set(rows.map((r) => r.eventId));
        if (fresh.size < ids.length) {
          const skipped = ids.filter((id) => !fresh.has(id));
          log.debug({ consumer, eventIds: skipped, inbox: name }, 'events already applied; skipped');
        }
        if (fresh.size > 0) await fn(fresh, tx);
        return fresh;
      });
    },

    async prune() {
      const old = lt(table.processedAt, sql`now() - make_interval(secs => ${retentionMs / 1000})`);
      const [row] = await executeRows<{ n: number }>(
        database.db,
        sql`with gone as (delete from ${table} where ${old} returning 1) select count(*)::int as n from gone`,
      );
      return row?.n ?? 0;
    },

    async has(consumer, eventId) {
      const n = await database.db.$count(table, sql`${table.consumer} = ${consumer} and ${table.eventId} = ${eventId}`);
      return n > 0;
    },
  };
}
