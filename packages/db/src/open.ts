import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import v8 from 'node:v8';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { withReservedTransactions } from './reserved-transactions.js';
import type { Database, DbLogger } from './types.js';

export interface OpenDatabaseOptions {
  /** PostgreSQL URL (cluster mode). Without it the embedded PGlite database under `dataDir` is used. */
  url?: string;
  /** Data directory of the embedded mode; PGlite keeps its files in `<dataDir>/pglite`. */
  dataDir: string;
  /** Connection pool size on PostgreSQL (default 10); ignored by PGlite. */
  max?: number;
  /**
   * How V8 compiles PGlite's WebAssembly (default `baseline`); ignored on PostgreSQL. The first embedded open of a
   * process decides: the setting is V8's, for the whole process (`useBaselineWasmCompiler`).
   */
  pgliteCompiler?: PgliteCompiler;
  log?: DbLogger;
  /**
   * The migrations the process will apply, in order; ignored on PostgreSQL. When PGlite's files are new, the child
   * that creates them applies these too (bookkept as `migrateSchema` does, which then finds nothing to do): the
   * schema's DDL grows PGlite's memory by some 10 MiB, which a first start would otherwise keep.
   */
  migrations?: readonly { schema: string; migrationsFolder: string }[];
}

/**
 * `baseline`: V8's baseline WebAssembly compiler (Liftoff) only. `optimizing`: V8's default, where functions that
 * run hot are compiled again by its optimizing compiler (TurboFan) on background threads: large scans answer up
 * to twice as fast, but each of those threads keeps the peak of its compilations in a malloc arena of its own,
 * some 50 MiB in all for PGlite's 9 MB module (docs/adr/171-embedded-wasm-baseline-compiler.md).
 */
export const PGLITE_COMPILERS = ['baseline', 'optimizing'] as const;
export type PgliteCompiler = (typeof PGLITE_COMPILERS)[number];
export const DEFAULT_PGLITE_COMPILER: PgliteCompiler = 'baseline';

/** V8's flag for its baseline WebAssembly compiler only. */
const BASELINE_WASM_FLAG = '--liftoff-only';

/**
 * What the migrator needs beyond the public `Database`: a private connection on PostgreSQL (to hold a
 * session advisory lock for the whole migration) or the typed PGlite drizzle instance.
 */
export type DriverHandle =
  | { driver: 'postgres'; connect: () => postgres.Sql }
  | { driver: 'pglite'; db: PgliteDatabase; pg: PGlite };

const handles = new WeakMap<Database, DriverHandle>();

/** The driver handle of a `Database` made by `openDatabase`; internal to this package. */
export function driverHandle(database: Database): DriverHandle {
  const handle = handles.get(database);
  if (!handle) throw new Error('this Database was not created by openDatabase()');
  return handle;
}

/**
 * Opens the database of a process.
 *
 * - With `url`: PostgreSQL through postgres.js, a pool of `max` connections. Fails with an error naming
 *   the server (never the password) when it cannot be reached.
 * - Without: PGlite on disk in `<dataDir>/pglite` (created if missing). PGlite is single-user, so a
 *   process opens it once and every service of the embedded process shares that one `Database`, each
 *   in its own schema. A second open of the same directory, in this process or another live one, is
 *   refused rather than risk corrupting it.
 */
export async function openDatabase(opts: OpenDatabaseOptions): Promise<Database> {
  return opts.url
    ? openPostgres(opts.url, opts)
    : openPglite(opts.dataDir, opts.pgliteCompiler ?? DEFAULT_PGLITE_COMPILER, opts.log, opts.migrations ?? []);
}

/**
 * Queries pipelined on a busy connection make postgres.js slow down under sustained load (its queue search
 * grows); 0 hands each connection one query at a time from the pool's queue. It would break every
 * transaction but for `withReservedTransactions`. The option is missing from postgres.js's type
 * definitions, hence a spread object rather than a literal property.
 */
const unpipelined = { max_pipeline: 0 };

/**
 * A postgres.js pool as every Rootline process opens one: one query per connection at a time, transactions on a
 * reserved connection, NOTICEs dropped, the server's own plan cache mode. For the primary and for a read replica.
 */
export function postgresPool(
  url: string,
  o: { max: number; connectTimeoutSeconds: number; applicationName: string },
): postgres.Sql {
  return withReservedTransactions(
    postgres(url, {
      ...unpipelined,
      max: o.max,
      // NOTICEs (e.g. "schema already exists, skipping") are expected and only clutter the log.
      onnotice: () => {},
      connect_timeout: o.connectTimeoutSeconds,
      // PostgreSQL's own plan cache mode: a prepared statement settles on a generic plan and is not planned at
      // every run (ADR 125). Its plan is made again when the table's statistics change (`analyzeGrownTables`).
      connection: { application_name: o.applicationName },
    }),
  );
}

async function openPostgres(url: string, opts: OpenDatabaseOptions): Promise<Database> {
  const connect = (max: number) => postgresPool(url, { max, connectTimeoutSeconds: 10, applicationName: 'rootline' });
  const client = connect(opts.max ?? 10);
  try {
    await client`select 1`;
  } catch (err) {
    await client.end({ timeout: 0 }).catch(() => {});
    throw new Error(`cannot reach PostgreSQL at ${describeServer(url)}: ${(err as Error).message}`, { cause: err });
  }
  const db = drizzlePostgres(client);
  const database: Database = {
    db,
    driver: 'postgres',
    ping: async () => {
      await client`select 1`;
    },
    listen: async (channel, fn, onListen) => {
      // postgres.js listens on one extra dedicated connection, re-listens after it reconnects and then calls onListen.
      const { unlisten } = await client.listen(channel, fn, onListen);
      return unlisten;
    },
    close: () => client.end({ timeout: 5 }),
  };
  handles.set(database, { driver: 'postgres', connect: () => connect(1) });
  opts.log?.info({ driver: 'postgres', server: describeServer(url) }, 'database opened');
  return database;
}

/** `host:port/database` of a PostgreSQL URL, without credentials. */
export function describeServer(url: string): string {
  try {
    const u = new URL(url);
    const host = u.hostname || u.searchParams.get('host') || 'localhost';
    return `${host}:${u.port || '5432'}${u.pathname}`;
  } catch {
    return 'the configured URL (unparsable, not shown)';
  }
}

/**
 * PGlite, its contrib extensions and drizzle's PGlite driver, loaded on the first embedded open only: a service
 * process on PostgreSQL never needs them, and their modules cost it some 5 MiB of heap (docs/perf/startup.md).
 *
 * The extensions: PGlite can run `CREATE EXTENSION` only for extensions given when it is constructed, and the
 * migrations must run unchanged on PostgreSQL and PGlite: the plants service's search indexes need pg_trgm
 * (docs/adr/022-search-trigram-index.md). Loading it costs little until a migration creates it.
 *
 * The start parameters: PostgreSQL's default shared_buffers (128 MB) lives inside PGlite's WebAssembly memory,
 * which never shrinks: it made up a third of the embedded process. Its files sit in the operating system's page
 * cache anyway, so a small buffer pool costs little for a single-user database (measured: reopen 285 → 172 MB RSS).
 */
async function loadPglite() {
  const [{ PGlite }, { pg_trgm }, { drizzle }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('drizzle-orm/pglite'),
  ]);
  return {
    PGlite,
    drizzle,
    extensions: { pg_trgm },
    startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'],
  };
}

/**
 * Creates the embedded database under `<dataDir>/pglite` when it has no files yet, in a child process (as
 * `openDatabase` would, with `migrations` applied there); true when it did, false when the database existed. The
 * embedded runner calls it before it loads the rest of its code (ADR 223): the child takes seconds, and a process
 * that waited for it with the platform loaded collected its garbage on a schedule of its own, ending the same work
 * 20–40 MiB above a process that opened an existing database. Refuses a directory in use by another live process.
 */
export async function createEmbeddedDatabase(opts: {
  dataDir: string;
  pgliteCompiler?: PgliteCompiler;
  migrations?: OpenDatabaseOptions['migrations'];
}): Promise<boolean> {
  const dir = resolve(opts.dataDir, 'pglite');
  if (existsSync(join(dir, 'PG_VERSION'))) return false;
  await mkdir(dir, { recursive: true });
  await takeLock(resolve(opts.dataDir, 'pglite.lock'), dir);
  const { startParams } = await loadPglite();
  await initdbInChild(dir, startParams, opts.pgliteCompiler ?? DEFAULT_PGLITE_COMPILER, opts.migrations ?? []);
  return true;
}

/** Data directories open in this process; PGlite must not be opened twice on one directory. */
const openDirs = new Set<string>();

/**
 * Tells V8 to compile WebAssembly with its baseline compiler only, before PGlite's module is compiled. V8 reads the
 * flag when it compiles a module, so it must come before the first `PGlite.create` of the process; it holds for
 * every module compiled afterwards (PGlite's is the only one in a Rootline process).
 */
function useBaselineWasmCompiler(): void {
  v8.setFlagsFromString(BASELINE_WASM_FLAG);
}

async function openPglite(
  dataDir: string,
  compiler: PgliteCompiler,
  log: DbLogger | undefined,
  migrations: NonNullable<OpenDatabaseOptions['migrations']>,
): Promise<Database> {
  const dir = resolve(dataDir, 'pglite');
  if (openDirs.has(dir)) {
    throw new Error(`PGlite at ${dir} is already open in this process: share its Database among services`);
  }
  openDirs.add(dir);
  const lockFile = resolve(dataDir, 'pglite.lock');
  let pg: PGlite;
  try {
    await mkdir(dir, { recursive: true });
    await takeLock(lockFile, dir);
    const { PGlite, extensions, startParams } = await loadPglite();
    if (compiler === 'baseline') useBaselineWasmCompiler();
    if (!existsSync(join(dir, 'PG_VERSION'))) await initdbInChild(dir, startParams, compiler, migrations);
    pg = await PGlite.create(dir, { extensions, startParams });
  } catch (err) {
    openDirs.delete(dir);
    throw err;
  }
  const db = (await loadPglite()).drizzle(pg);
  let closing: Promise<void> | undefined;
  const database: Database = {
    db,
    driver: 'pglite',
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    // In the process: no connection to lose, so listening starts once.
    listen: async (channel, fn, onListen) => {
      const stop = await pg.listen(channel, fn);
      onListen?.();
      return stop;
    },
    close: () => {
      closing ??= (async () => {
        try {
          await pg.close();
        } finally {
          await rm(lockFile, { force: true });
          openDirs.delete(dir);
        }
      })();
      return closing;
    },
  };
  handles.set(database, { driver: 'pglite', db, pg });
  log?.info({ driver: 'pglite', dir }, 'database opened');
  return database;
}

/** Schema that holds every service's migration bookkeeping table. */
export const BOOKKEEPING_SCHEMA = 'drizzle';

/** The bookkeeping table of a service's migrations (`drizzle."<schema>_migrations"`). */
export const migrationsTableOf = (schema: string) => `${schema}_migrations`;

/** Plain JavaScript beside this module in src/ and, copied by the build, in dist/. */
const INITDB_SCRIPT = fileURLToPath(new URL('./pglite-initdb.mjs', import.meta.url));

/**
 * Creates a new embedded database's files in a child process (`pglite-initdb.mjs` says why): the first start then
 * opens an existing database, as every later start does, and holds no more memory than they do.
 */
async function initdbInChild(
  dir: string,
  startParams: string[],
  compiler: PgliteCompiler,
  migrations: NonNullable<OpenDatabaseOptions['migrations']>,
): Promise<void> {
  const flags = compiler === 'baseline' ? [BASELINE_WASM_FLAG] : [];
  const applied = migrations.map((m) => ({
    migrationsFolder: m.migrationsFolder,
    migrationsSchema: BOOKKEEPING_SCHEMA,
    migrationsTable: migrationsTableOf(m.schema),
  }));
  try {
    await promisify(execFile)(process.execPath, [...flags, INITDB_SCRIPT, dir, ...startParams], {
      env: { ...process.env, NODE_OPTIONS: '', ROOTLINE_INITDB_MIGRATIONS: JSON.stringify(applied) },
    });
  } catch (err) {
    const { stderr } = err as { stderr?: string };
    throw new Error(`could not create the embedded database in ${dir}: ${stderr?.trim() || (err as Error).message}`, {
      cause: err,
    });
  }
}

/**
 * Refuses a data directory held by another live process (two PGlite instances on one directory corrupt
 * it). A lock left by a dead process, or by this process before a restart with the same pid, is taken over.
 */
async function takeLock(lockFile: string, dir: string): Promise<void> {
  const holder = Number.parseInt(await readFile(lockFile, 'utf8').catch(() => ''), 10);
  if (Number.isInteger(holder) && holder !== process.pid && isAlive(holder)) {
    throw new Error(`PGlite at ${dir} is in use by process ${holder} (lock ${lockFile})`);
  }
  await writeFile(lockFile, String(process.pid));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
