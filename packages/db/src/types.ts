import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';

/** A drizzle database or transaction; the same type on postgres.js and on PGlite. */
// biome-ignore lint/suspicious/noExplicitAny: drizzle's schema parameter is not used by repositories.
export type Db = PgDatabase<PgQueryResultHKT, any>;

export interface Database {
  readonly db: Db;
  readonly driver: 'postgres' | 'pglite';
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
