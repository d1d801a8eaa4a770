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
