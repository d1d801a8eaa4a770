import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';

/** A drizzle database or transaction; the same type on postgres.js and on PGlite. */
// biome-ignore lint/suspicious/noExplicitAny: drizzle's schema parameter is not used by repositories.
export type Db = PgDatabase<PgQueryResultHKT, any>;

/**
 * The few log methods this package uses; a pino logger fits. Structured fields first, message second.
 */
export interface DbLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface Database {
  readonly db: Db;
  readonly driver: 'postgres' | 'pglite';
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  /**
   * Calls `fn` with the payload of every NOTIFY on `channel` (sent by any process, delivered on commit).
   * Use lower-case names of letters, digits and `_`: PGlite folds the channel name to lower case.
   * Resolves once listening, to a function that stops it. `onListen` runs each time listening (re)starts, on
   * PostgreSQL also after a lost connection is made again: notifications sent in the gap are not delivered, so a
   * listener looks for what it missed there.
   */
  listen(channel: string, fn: (payload: string) => void, onListen?: () => void): Promise<() => Promise<void>>;
  /** Closes connections (PostgreSQL) or the embedded database (PGlite). */
  close(): Promise<void>;
}
