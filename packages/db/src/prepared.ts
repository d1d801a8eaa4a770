import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from './types.js';

const statements = new WeakMap<Db, Map<string, unknown>>();

/**
 * A statement prepared once per database and reused. On the hot paths (a read by primary key on every
 * request) drizzle's query builder and PostgreSQL's parse-and-plan cost more than the query itself; a named
 * prepared statement skips both. `build` receives the database and must end in `.prepare(name)`.
 * Bound to the database object, so do not use it with a transaction.
 */
export function prepared<T>(db: Db, name: string, build: (db: Db) => T): T {
  let byName = statements.get(db);
  if (!byName) {
    byName = new Map();
    statements.set(db, byName);
  }
  let statement = byName.get(name) as T | undefined;
  if (statement === undefined) {
    statement = build(db);
    byName.set(name, statement);
  }
  return statement;
}

const dialect = new PgDialect();

/** Rows of a raw query, whichever driver ran it (postgres.js answers an array, PGlite an object with `rows`). */
export async function executeRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as T[] | { rows: T[] };
  return Array.isArray(result) ? result : result.rows;
}

/** The part of postgres.js used here: `unsafe` with its `prepare` option. */
interface PostgresJsClient {
  unsafe(text: string, params: unknown[], options: { prepare: boolean }): PromiseLike<unknown[]>;
}

/**
 * Rows of a raw query, run as a prepared statement on PostgreSQL. Drizzle's `execute` (and its query builder,
 * unless given a name) reaches postgres.js through `unsafe` without preparing: every call is parsed and planned
 * afresh, and a call with parameters costs an extra round trip to describe them. Asking `unsafe` to prepare makes
 * postgres.js keep one statement per text on each connection, so PostgreSQL reuses its plan; only for a query
 * whose text is fixed and whose values are all parameters (else every distinct text is one more statement kept).
 * Given a transaction, it runs on the transaction's connection. On PGlite it runs as `execute` would.
 */
export async function executePrepared<T>(db: Db, query: SQL): Promise<T[]> {
  // The session's client: the pool for the database, the reserved connection for a transaction.
  const client = (db as { session?: { client?: unknown } }).session?.client as Partial<PostgresJsClient> | undefined;
  if (typeof client?.unsafe !== 'function') return executeRows<T>(db, query);
  const { sql: text, params } = dialect.sqlToQuery(query);
  return [...((await client.unsafe(text, params, { prepare: true })) as T[])];
}
