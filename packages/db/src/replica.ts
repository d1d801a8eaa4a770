import { sql } from 'drizzle-orm';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { describeServer, postgresPool } from './open.js';
import { executeRows } from './prepared.js';
import type { Database, Db, DbLogger } from './types.js';
import { isDatabaseUnavailable } from './unavailable.js';

/**
 * A position in PostgreSQL's write-ahead log, as `pg_lsn` prints it (`16/B374D848`): two hexadecimal halves of a
 * 64-bit number. Compared as numbers, never as text.
 */
export function lsnToBigInt(lsn: string): bigint {
  const m = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(lsn);
  if (!m) throw new Error(`not a WAL position: "${lsn}"`);
  return (BigInt(`0x${m[1]}`) << 32n) | BigInt(`0x${m[2]}`);
}

/**
 * Whether a replica that has replayed the log up to `replayed` holds every write the primary had made when its log
 * stood at `primaryBefore`. A server that is not replaying (not a standby) answers null: never fresh.
 */
export function replicaHolds(replayed: string | null, primaryBefore: string): boolean {
  return replayed !== null && lsnToBigInt(replayed) >= lsnToBigInt(primaryBefore);
}

/** Where a read was served; counted by the caller's metrics. */
export type ReadTarget = 'primary' | 'replica';

export interface ReadRouterOptions {
  primary: Database;
  /** PostgreSQL URL of a streaming replica of the primary (hot standby). */
  replicaUrl: string;
  /** Connections to the replica (default 10). */
  max?: number;
  /** How often the replica's position is compared with the primary's (default 1,000 ms). */
  intervalMs?: number;
  log?: DbLogger;
  /** Called once for every read, with where it was served. */
  onRead?: (target: ReadTarget) => void;
}

/** Reads routed to a read replica while it keeps up with the primary, to the primary otherwise. */
export interface ReadRouter {
  /**
   * Runs a read on the replica when it is fresh and `primaryOnly` is false; on the primary otherwise. A read that
   * fails on the replica runs again on the primary (reads change nothing, so a second run is safe); a failure of the
   * replica's connection also marks it stale until its next check succeeds.
   */
  run<T>(primaryOnly: boolean, fn: (db: Db) => Promise<T>): Promise<T>;
  /** Whether reads go to the replica now. */
  readonly fresh: boolean;
  /** Compares the replica's position with the primary's once (the timer does it every interval). */
  check(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens a pool on a streaming replica and keeps track of whether it is fresh: every interval the replica's replayed
 * position must have reached the position the primary's log stood at one interval earlier, so a read served there
 * misses at most the last interval or two of writes. Checks begin with the first read; nothing is read there before
 * two checks agree, and a
 * replica that is down, lagging or not a standby sends every read to the primary. A caller that must see its own
 * recent write asks for the primary (`primaryOnly`): docs/read-replicas.md gives the rule. Not for PGlite.
 */
export function openReadRouter(o: ReadRouterOptions): ReadRouter {
  if (o.primary.driver !== 'postgres') throw new Error('read replicas need PostgreSQL, not the embedded database');
  const client = postgresPool(o.replicaUrl, {
    max: o.max ?? 10,
    connectTimeoutSeconds: 5,
    applicationName: 'rootline-reads',
  });
  const replica = drizzlePostgres(client);
  const server = describeServer(o.replicaUrl);
  let fresh = false;
  let primaryBefore: string | undefined;
  let said: 'fresh' | 'stale' | undefined;
  let closed = false;

  const become = (now: boolean, why: string, err?: unknown) => {
    fresh = now;
    const state = now ? 'fresh' : 'stale';
    if (said === state) return;
    said = state;
    if (now) o.log?.info({ replica: server }, 'read replica is fresh: reads go there');
    else
      o.log?.warn({ replica: server, why, ...(err ? { err } : {}) }, 'read replica left out: reads go to the primary');
  };

  const check = async () => {
    let primaryNow: string;
    try {
      const [row] = await executeRows<{ lsn: string }>(o.primary.db, sql`select pg_current_wal_lsn()::text as lsn`);
      primaryNow = row!.lsn;
    } catch {
      // The primary's own trouble is its callers' to see; the replica's state is unknown until the next check.
      return;
    }
    try {
      const [row] = await executeRows<{ lsn: string | null }>(
        replica,
        sql`select pg_last_wal_replay_lsn()::text as lsn`,
      );
      const replayed = row?.lsn ?? null;
      if (replayed === null) become(false, 'the server at DATABASE_READ_URL is not a standby');
      else if (primaryBefore !== undefined && replicaHolds(replayed, primaryBefore)) become(true, 'caught up');
      else if (primaryBefore !== undefined) become(false, 'behind the primary by more than one check');
    } catch (err) {
      become(false, 'unreachable', err);
    }
    primaryBefore = primaryNow;
  };

  // Checked from the first read on: a service that never reads there costs the replica nothing.
  const intervalMs = o.intervalMs ?? 1000;
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  const watch = () => {
    timer = setInterval(() => {
      running ??= check().finally(() => {
        running = undefined;
      });
    }, intervalMs);
    timer.unref();
    running = check().finally(() => {
      running = undefined;
    });
  };

  return {
    get fresh() {
      return fresh;
    },
    check,
    async run<T>(primaryOnly: boolean, fn: (db: Db) => Promise<T>): Promise<T> {
      if (!timer && !closed) watch();
      if (fresh && !primaryOnly && !closed) {
        try {
          const result = await fn(replica);
          o.onRead?.('replica');
          return result;
        } catch (err) {
          if (isDatabaseUnavailable(err)) become(false, 'a read failed', err);
        }
      }
      const result = await fn(o.primary.db);
      o.onRead?.('primary');
      return result;
    },
    async close() {
      closed = true;
      if (timer) clearInterval(timer);
      await running;
      await client.end({ timeout: 5 });
    },
  };
}

/** Every read on the one database (no replica configured, or the embedded mode). */
export function primaryReads(primary: Database, onRead?: (target: ReadTarget) => void): ReadRouter {
  return {
    fresh: false,
    check: async () => {},
    run: async (_primaryOnly, fn) => {
      const result = await fn(primary.db);
      onRead?.('primary');
      return result;
    },
    close: async () => {},
  };
}
