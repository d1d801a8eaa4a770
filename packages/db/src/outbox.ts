import type { EventMessage } from '@rootline/bus';
import { type CallContext, contextToHeaders, type EventDef, newId, type PayloadOf } from '@rootline/contracts';
import { asc, eq, inArray, isNull, lt, type SQL, sql } from 'drizzle-orm';
import { bigint, getTableConfig, index, integer, jsonb, type PgSchema, text, timestamp } from 'drizzle-orm/pg-core';
import { insertFromJson } from './json-rows.js';
import { executePrepared } from './prepared.js';
import { serialise } from './serialise.js';
import type { Database, Db, DbLogger } from './types.js';

/**
 * The `outbox` table in a service's schema. Export it from the service's `schema.ts` so drizzle-kit
 * generates it with the service's migrations. Rows are events waiting for (or kept after) publication.
 */
export function outboxTable(schema: PgSchema) {
  return schema.table(
    'outbox',
    {
      /** The event id (`evt_…`), also the bus de-duplication id. */
      id: text('id').primaryKey(),
      /** Insertion order: the relay publishes in this order. */
      seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
      subject: text('subject').notNull(),
      payload: jsonb('payload').$type<unknown>().notNull(),
      headers: jsonb('headers').$type<Record<string, string>>().notNull(),
      occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
      publishedAt: timestamp('published_at', { withTimezone: true }),
      /** Failed publish attempts of this row. */
      attempts: integer('attempts').notNull().default(0),
    },
    // Pending rows are few and published ones pile up until pruned: index only the pending, in order.
    (t) => [index('outbox_pending_idx').on(t.seq).where(sql`"published_at" is null`)],
  );
}

/** A service's outbox table, as made by `outboxTable`. */
export type OutboxTable = ReturnType<typeof outboxTable>;

export interface OutboxOptions {
  database: Database;
  table: OutboxTable;
  /** Publishes one event; the bus drops a second publish of the same id, so a retry is harmless. */
  publish: (event: EventMessage) => Promise<void>;
  log: DbLogger;
  /**
   * Safety-net poll interval (default 5 s): NOTIFY wakes the relay right after each commit, and listening again after
   * a lost connection wakes it too, so the poll only covers a notification lost otherwise.
   */
  pollMs?: number;
  /** Rows claimed and published per batch (default 100). */
  batchSize?: number;
  /** How long published rows are kept before pruning (default 7 days). */
  retentionMs?: number;
}

/** One event for `enqueueMany`. */
export interface PendingEvent<E extends EventDef = EventDef> {
  def: E;
  payload: PayloadOf<E>;
  ctx: CallContext;
}

/** An event for `enqueueMany`, with its payload checked against its declaration. */
export function pendingEvent<E extends EventDef>(def: E, payload: PayloadOf<E>, ctx: CallContext): PendingEvent {
  return { def, payload, ctx };
}

/** A transactional outbox and its relay. */
export interface Outbox {
  /**
   * Records an event in the caller's transaction `tx`, so the event exists if and only if the state change
   * commits. Returns the event id. The relay publishes it after the commit.
   */
  enqueue<E extends EventDef>(tx: Db, def: E, payload: PayloadOf<E>, ctx: CallContext): Promise<string>;
  /**
   * Records several events in the caller's transaction with one INSERT and one notification (a batch of
   * writes committed together). Returns their ids in order; relays publish them in that order.
   */
  enqueueMany(tx: Db, events: readonly PendingEvent[]): Promise<string[]>;
  /**
   * Writes a state change and its events as one statement: each change (a plain INSERT, UPDATE or DELETE, e.g.
   * from `insertFromJson`) becomes a data-modifying WITH clause beside the events' INSERT and the notification.
   * One statement is atomic without a transaction, so this saves BEGIN, COMMIT and a round trip per change, and
   * with fixed texts it runs as a prepared statement. All changes see the database as it was before the
   * statement (one snapshot): one cannot read what another writes. For the hot write paths; not for use inside
   * a transaction.
   * Returns the event ids in order.
   */
  commitWith(db: Db, changes: readonly SQL[], events: readonly PendingEvent[]): Promise<string[]>;
  /** Starts the relay (idempotent). Rows left by a previous process are published at once. */
  start(): void;
  /**
   * Publishes every pending row this relay can claim now (rows another relay holds are left to it) and
   * returns how many it published. Rejects with the publish error if one fails; that row stays pending.
   */
  flush(): Promise<number>;
  /** Number of unpublished rows. */
  backlog(): Promise<number>;
  /** Stops the relay and waits for a batch in flight. */
  stop(): Promise<void>;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const PRUNE_EVERY_MS = 60 * 60 * 1000;
const BACKOFF_MIN_MS = 100;
const BACKOFF_MAX_MS = 30_000;

type OutboxRow = OutboxTable['$inferSelect'];

interface BatchResult {
  claimed: number;
  published: number;
  /** Set when a publish (or the database) failed; the batch stopped there. */
  error?: unknown;
}

/** Default safety-net poll of a relay: rare enough to cost nothing at rest (ten services poll). */
export const OUTBOX_POLL_MS = 5000;

/**
 * Creates the outbox of one service table. The relay, once started, publishes committed rows in `seq`
 * order and marks them published. It is woken by NOTIFY (sent by `enqueue`, delivered on commit, to
 * relays in every process) and each time its LISTEN (re)starts, and polls every `pollMs` in case a notification was
 * lost.
 *
 * On PostgreSQL a batch is claimed with `FOR UPDATE SKIP LOCKED` inside a transaction held while it is
 * published, so replicas share the work without publishing a row twice; order holds within a relay, while
 * several replicas may interleave. A failed publish stops the batch, counts an attempt on the row and backs
 * off (100 ms doubling to 30 s). A crash between publish and commit re-publishes the row later with the
 * same id, which the bus drops: delivery is at least once and normally exactly once.
 */
export function createOutbox(opts: OutboxOptions): Outbox {
  const { database, table, publish, log } = opts;
  const pollMs = opts.pollMs ?? OUTBOX_POLL_MS;
  const batchSize = opts.batchSize ?? 100;
  const retentionMs = opts.retentionMs ?? 7 * DAY_MS;
  const config = getTableConfig(table);
  const schema = config.schema ?? 'public';
  const channel = notifyChannel(schema);
  const lockKey = `outbox:${schema}.${config.name}`;

  let started = false;
  let generation = 0;
  let pollTimer: NodeJS.Timeout | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let listening: Promise<void> | undefined;
  let unlisten: (() => Promise<void>) | undefined;
  let inFlight: Promise<void> | undefined;
  let again = false;
  let failures = 0;
  let retryAt = 0;
  // Intervals are measured on the monotonic clock; the retention cut-off is the database's time, like publishedAt.
  let lastPrune = Number.NEGATIVE_INFINITY;

  const pending = (q: Db) =>
    q.select().from(table).where(isNull(table.publishedAt)).orderBy(asc(table.seq)).limit(batchSize);

  async function publishRows(q: Db, rows: OutboxRow[]): Promise<BatchResult> {
    const done: string[] = [];
    let error: unknown;
    for (const row of rows) {
      try {
        await publish({
          id: row.id,
          subject: row.subject,
          occurredAt: row.occurredAt.toISOString(),
          payload: row.payload,
          headers: row.headers,
        });
        done.push(row.id);
      } catch (err) {
        // Later rows wait too, so events of one relay are never published out of order.
        error = err ?? new Error('publish failed');
        await q
          .update(table)
          .set({ attempts: sql`${table.attempts} + 1` })
          .where(eq(table.id, row.id));
        break;
      }
    }
    if (done.length > 0) {
      await q.update(table).set({ publishedAt: sql`now()` }).where(inArray(table.id, done));
    }
    return { claimed: rows.length, published: done.length, error };
  }

  function relayBatch(): Promise<BatchResult> {
    // One batch at a time per table in this process; on PGlite that is the only guard against doubles.
    return serialise(database, lockKey, async () => {
      if (database.driver === 'pglite') {
        // PGlite runs one transaction at a time for the whole process, so one held open while publishing
        // would stall every service; the in-process lock already keeps this process's relays apart.
        return publishRows(database.db, await pending(database.db));
      }
      return database.db.transaction(async (tx) =>
        publishRows(tx, await pending(tx).for('update', { skipLocked: true })),
      );
    });
  }

  async function drain(): Promise<void> {
    while (started) {
      again = false;
      const result = await relayBatch().catch((error: unknown): BatchResult => ({ claimed: 0, published: 0, error }));
      if (result.error !== undefined) {
        backOff(result.error);
        return;
      }
      failures = 0;
      // A full batch may have more behind it; a wake-up during the batch may mean a new commit.
      if (result.claimed < batchSize && !again) break;
    }
    await prune();
  }

  function backOff(err: unknown): void {
    failures += 1;
    const delay = Math.min(BACKOFF_MIN_MS * 2 ** (failures - 1), BACKOFF_MAX_MS);
    retryAt = performance.now() + delay;
    const fields = { err, channel, failures, retryInMs: delay };
    if (failures >= 5) log.error(fields, 'outbox relay keeps failing; events are held until publishing works');
    else log.warn(fields, 'outbox relay failed; retrying');
    clearTimeout(retryTimer);
    retryTimer = setTimeout(() => {
      retryAt = 0;
      wake();
    }, delay);
    retryTimer.unref();
  }

  /** Runs the relay now, or once more after the current run; ignored while backing off. */
  function wake(): void {
    if (!started || performance.now() < retryAt) return;
    if (inFlight) {
      again = true;
      return;
    }
    inFlight = drain()
      .catch((err: unknown) => log.error({ err, channel }, 'outbox relay crashed'))
      .finally(() => {
        inFlight = undefined;
        if (again) wake();
      });
  }

  async function prune(): Promise<void> {
    if (performance.now() - lastPrune < PRUNE_EVERY_MS) return;
    lastPrune = performance.now();
    try {
      await database.db
        .delete(table)
        .where(lt(table.publishedAt, sql`now() - make_interval(secs => ${retentionMs / 1000})`));
    } catch (err) {
      log.warn({ err, channel }, 'outbox prune failed');
    }
  }

  const eventRows = (events: readonly PendingEvent[]) =>
    events.map((e) => ({
      id: newId('evt', Date.now()),
      subject: e.def.subject,
      payload: e.payload,
      // Where the caller's own reads go is no business of whoever consumes the event.
      headers: contextToHeaders({ ...e.ctx, readPrimary: false }),
    }));

  async function commitWith(db: Db, changes: readonly SQL[], events: readonly PendingEvent[]): Promise<string[]> {
    const rows = eventRows(events);
    const clauses = changes.map((change, i) => sql`${sql.raw(`change_${i}`)} as (${change})`);
    if (rows.length > 0) clauses.push(sql`events as (${insertFromJson(table, rows)})`);
    if (clauses.length === 0) return [];
    // Data-modifying WITH clauses run to completion whether or not the final SELECT reads them; the notification
    // is delivered only if the statement commits.
    await executePrepared(
      db,
      sql`with ${sql.join(clauses, sql`, `)} select ${rows.length > 0 ? sql`pg_notify(${channel}, '')` : sql`1`}`,
    );
    return rows.map((r) => r.id);
  }

  async function enqueueMany(tx: Db, events: readonly PendingEvent[]): Promise<string[]> {
    if (events.length === 0) return [];
    const rows = eventRows(events);
    // One prepared statement (its text is fixed): the rows in order, so `seq` keeps the order given, and the
    // notification, delivered only if and when the transaction commits, to every listening relay.
    await executePrepared(tx, sql`with events as (${insertFromJson(table, rows)}) select pg_notify(${channel}, '')`);
    return rows.map((r) => r.id);
  }

  return {
    async enqueue(tx, def, payload, ctx) {
      const [id] = await enqueueMany(tx, [{ def, payload, ctx }]);
      return id!;
    },

    enqueueMany,
    commitWith,

    start() {
      if (started) return;
      started = true;
      const gen = ++generation;
      pollTimer = setInterval(wake, pollMs);
      pollTimer.unref();
      wake();
      // Waking when LISTEN (re)starts covers a commit that landed before it took effect, at start or in a reconnect.
      listening = database
        .listen(channel, wake, () => {
          if (gen === generation) wake();
        })
        .then(
          (stop) => {
            if (gen !== generation) return stop().catch(() => {});
            unlisten = stop;
          },
          (err: unknown) => log.warn({ err, channel }, 'outbox LISTEN failed; the relay falls back to polling'),
        );
    },

    async flush() {
      let total = 0;
      for (;;) {
        const result = await relayBatch();
        total += result.published;
        if (result.error !== undefined) throw result.error;
        if (result.claimed < batchSize) return total;
      }
    },

    backlog() {
      return database.db.$count(table, isNull(table.publishedAt));
    },

    async stop() {
      if (started) {
        started = false;
        generation += 1;
        clearInterval(pollTimer);
        clearTimeout(retryTimer);
        retryAt = 0;
        await listening;
        await unlisten?.().catch(() => {});
        unlisten = undefined;
      }
      await inFlight;
    },
  };
}

/** NOTIFY channel of a schema's outbox; lower-case because PGlite folds channel names. */
function notifyChannel(schema: string): string {
  return `outbox_${schema.toLowerCase().replace(/[^a-z0-9_]/g, '_')}`;
}
