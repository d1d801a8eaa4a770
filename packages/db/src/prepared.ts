import { fillPlaceholders, type Query, type SQL } from 'drizzle-orm';
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

/** Runs a built query as a prepared statement through drizzle's session (the pool's, or a transaction's). */
async function runPrepared<T>(db: Db, query: Query, name: string, values?: Record<string, unknown>): Promise<T[]> {
  const result = (await db._.session.prepareQuery(query, undefined, name, false).execute(values)) as unknown as
    | T[]
    | { rows: T[] };
  return Array.isArray(result) ? result : result.rows;
}

/**
 * Rows of a raw query, run as a prepared statement on PostgreSQL. Drizzle's `execute` reaches postgres.js
 * through `unsafe` without preparing: every call is parsed and planned afresh, and a call with parameters costs
 * an extra round trip to describe them. Running it as a named query makes postgres.js keep one statement per
 * text on each connection, so PostgreSQL reuses its plan; only for a query whose text is fixed and whose values
 * are all parameters (else every distinct text is one more statement kept). Works on the pool and inside a
 * transaction (on its connection). On PGlite it runs as `execute` would.
 */
export async function executePrepared<T>(db: Db, query: SQL): Promise<T[]> {
  return runPrepared<T>(db, dialect.sqlToQuery(query), 'prepared');
}

/** A statement built once, run as a prepared statement; see `fixedStatement`. */
export interface FixedStatement {
  <T>(db: Db, values: Record<string, unknown>): Promise<T[]>;
  /**
   * The statement as PostgreSQL text with the given values in its parameters' order (`$1`, `$2`, …), for a client
   * without drizzle (a benchmark's bare pipeline runs the very statement the service runs).
   */
  text(values: Record<string, unknown>): { text: string; values: unknown[] };
}

/**
 * A raw statement whose text is built once, at module load, with every value a `sql.placeholder`: each run
 * fills the placeholders and executes it as a prepared statement, on the pool or inside a transaction (drizzle
 * reaches the transaction's connection through its session). So a hot statement costs neither drizzle's query
 * building nor PostgreSQL's parse and the extra round trip that describes the parameters of an unprepared one.
 * Only for a text that never varies (give a list as one JSON parameter). Rows as `executeRows` returns them.
 */
export function fixedStatement(name: string, query: SQL): FixedStatement {
  const built = dialect.sqlToQuery(query);
  const run = <T>(db: Db, values: Record<string, unknown>) => runPrepared<T>(db, built, name, values);
  return Object.assign(run, {
    text: (values: Record<string, unknown>) => ({ text: built.sql, values: fillPlaceholders(built.params, values) }),
  });
}
