import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { MigrationConfig } from 'drizzle-orm/migrator';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import type postgres from 'postgres';
import { BOOKKEEPING_SCHEMA, driverHandle, migrationsTableOf } from './open.js';
import { serialise } from './serialise.js';
import type { Database } from './types.js';

export interface MigrateOptions {
  /** The service's Postgres schema, e.g. `plants`. */
  schema: string;
  /** Folder of drizzle-kit generated migrations (with `meta/_journal.json`). */
  migrationsFolder: string;
}

/**
 * Applies a service's pending drizzle-kit migrations; a no-op when all are applied.
 *
 * Bookkeeping lives in `drizzle."<schema>_migrations"`, outside the service's schema, because the
 * generated SQL itself runs `CREATE SCHEMA "<schema>"`. On PostgreSQL, processes starting together are
 * serialised by a session advisory lock (one for all schemas, below), held on a connection of its own for the
 * whole run (a crash releases it with the connection); replicas then find nothing left to apply.
 */
export async function migrateSchema(database: Database, opts: MigrateOptions): Promise<void> {
  const config: MigrationConfig = {
    migrationsFolder: opts.migrationsFolder,
    migrationsSchema: BOOKKEEPING_SCHEMA,
    migrationsTable: migrationsTableOf(opts.schema),
  };
  const handle = driverHandle(database);
  if (handle.driver === 'pglite') {
    // One PGlite per process: an in-process queue is all the serialisation it needs.
    return serialise(database, `migrate:${opts.schema}`, async () => {
      if (await appliedAlready(handle.pg, opts)) return;
      // Loaded here: a process on PostgreSQL never needs drizzle's PGlite migrator.
      const { migrate: migratePglite } = await import('drizzle-orm/pglite/migrator');
      await migratePglite(handle.db, config);
    });
  }
  const client = handle.connect();
  try {
    await client`select pg_advisory_lock(${MIGRATION_LOCK_KEY}::bigint)`;
    await createBookkeepingSchema(client);
    await migratePostgres(drizzle(client), config);
  } finally {
    // Ending the session releases the advisory lock.
    await client.end({ timeout: 5 });
  }
}

/**
 * Whether the schema's bookkeeping already holds its newest migration: drizzle's own test (it applies a migration
 * whose folder time is later than the last one recorded), made with one query and the journal alone, instead of
 * its four statements and reading and hashing every migration's SQL. An embedded start makes it for every schema
 * (ADR 242). A missing bookkeeping table (a new schema) answers false, and drizzle's migrator runs.
 */
async function appliedAlready(pg: PGlite, opts: MigrateOptions): Promise<boolean> {
  const journal = JSON.parse(await readFile(join(opts.migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
    entries: { when: number }[];
  };
  const newest = Math.max(...journal.entries.map((e) => e.when));
  const table = `"${BOOKKEEPING_SCHEMA}"."${migrationsTableOf(opts.schema)}"`;
  const found = await pg.query<{ t: string | null }>('select to_regclass($1)::text as t', [table]);
  if (!found.rows[0]?.t) return false;
  const last = await pg.query<{ last: string | null }>(`select max(created_at)::text as last from ${table}`);
  const recorded = last.rows[0]?.last;
  return recorded != null && Number(recorded) >= newest;
}

/**
 * One advisory lock for every service's migrations in a database, not one per schema: two services' migrations
 * may create the same extension (pg_trgm, by plants and demand), and concurrent `CREATE EXTENSION IF NOT EXISTS`
 * collides on the catalog's unique index, failing one service's first start. Migrating in turn costs a cluster's
 * first start little; later starts find nothing to apply.
 */
const MIGRATION_LOCK_KEY = createHash('sha256').update('rootline:migrate').digest().readBigInt64BE(0).toString();

/**
 * Two services migrating at once each hold only their own lock, and concurrent `CREATE SCHEMA IF NOT
 * EXISTS` can still collide on the catalog's unique index; the loser finds the schema there, which is fine.
 */
async function createBookkeepingSchema(client: postgres.Sql): Promise<void> {
  try {
    await client`create schema if not exists ${client(BOOKKEEPING_SCHEMA)}`;
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code !== '23505' && code !== '42P06') throw err;
  }
}
