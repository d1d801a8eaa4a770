import { fileURLToPath } from 'node:url';
import type { EventLogState, EventLogStore, LoggedEvent } from '@rootline/bus';
import { sql } from 'drizzle-orm';
import { migrateSchema } from './migrate.js';
import { executeRows } from './prepared.js';
import type { Database, DbLogger } from './types.js';

export interface EventLogOptions {
  database: Database;
  log: DbLogger;
  /**
   * How long events are kept in the log (default 7 days, the outbox's retention). Older events are deleted on
   * open and every hour, whether or not every durable has settled them, as a stream's maximum age would.
   */
  retentionMs?: number;
}

/** An `EventLogStore` that can also be told to stop its pruning timer. */
export interface DatabaseEventLog extends EventLogStore {
  /** Stops the hourly pruning. */
  stop(): void;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const PRUNE_EVERY_MS = 60 * 60 * 1000;
const MIGRATIONS = fileURLToPath(new URL('../migrations/bus', import.meta.url));

interface EventRow {
  seq: string | number;
  id: string;
  subject: string;
  body: string;
  headers: string;
  stored_at_ms: string | number;
}

/**
 * Keeps the in-process broker's event log in the `bus` schema of a database (embedded mode: the PGlite
 * database the services use), for `openMemoryBroker`. `bus.events` holds the published events by sequence,
 * `bus.settled` the events each durable acknowledged or gave up. Applies its own migrations on open.
 */
export async function openEventLog(opts: EventLogOptions): Promise<DatabaseEventLog> {
  const { database, log } = opts;
  const db = database.db;
  const retentionMs = opts.retentionMs ?? 7 * DAY_MS;
  await migrateSchema(database, { schema: 'bus', migrationsFolder: MIGRATIONS });

  async function prune(): Promise<void> {
    await db.execute(
      sql`delete from bus.events where stored_at < now() - make_interval(secs => ${retentionMs / 1000})`,
    );
    // Settlements of events no longer in the log are of no use.
    await db.execute(
      sql`delete from bus.settled where seq < coalesce((select min(seq) from bus.events), 9223372036854775807)`,
    );
  }

  const timer = setInterval(() => {
    prune().catch((err: unknown) => log.warn({ err }, 'bus event log prune failed'));
  }, PRUNE_EVERY_MS).unref();

  return {
    async load(): Promise<EventLogState> {
      await prune();
      const rows = await executeRows<EventRow>(
        db,
        sql`select seq, id, subject, body, headers, (extract(epoch from stored_at) * 1000)::bigint as stored_at_ms
            from bus.events order by seq`,
      );
      const events: LoggedEvent[] = rows.map((r) => ({
        seq: Number(r.seq),
        id: r.id,
        subject: r.subject,
        body: r.body,
        headers: r.headers,
        storedAt: Number(r.stored_at_ms),
      }));
      const settled = new Map<string, Set<number>>();
      for (const r of await executeRows<{ durable: string; seq: string | number }>(
        db,
        sql`select durable, seq from bus.settled`,
      )) {
        let set = settled.get(r.durable);
        if (!set) {
          set = new Set();
          settled.set(r.durable, set);
        }
        set.add(Number(r.seq));
      }
      log.info({ events: events.length, durables: settled.size }, 'bus event log loaded');
      return { events, settled };
    },

    async append(batch) {
      if (batch.length === 0) return;
      const rows = batch.map(
        (e) => sql`(${e.seq}, ${e.id}, ${e.subject}, ${e.body}, ${e.headers}, to_timestamp(${e.storedAt / 1000}))`,
      );
      await db.execute(
        sql`insert into bus.events (seq, id, subject, body, headers, stored_at) values ${sql.join(rows, sql`, `)}`,
      );
    },

    async settle(settlements) {
      if (settlements.length === 0) return;
      const rows = settlements.map((s) => sql`(${s.durable}, ${s.seq})`);
      await db.execute(
        sql`insert into bus.settled (durable, seq) values ${sql.join(rows, sql`, `)} on conflict do nothing`,
      );
    },

    stop() {
      clearInterval(timer);
    },
  };
}
