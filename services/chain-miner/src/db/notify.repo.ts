import { type Db, fixedStatement } from '@rootline/db';
import { sql } from 'drizzle-orm';

/** NOTIFY channel: transactions were added to the mempool (wakes the appender). */
export const MEMPOOL_CHANNEL = 'chain_mempool';
/** NOTIFY channel: a block was stored; payload `{"index","hash","timestamp"}` (wakes waiting submitters). */
export const BLOCK_CHANNEL = 'chain_block';

const pgNotify = fixedStatement(
  'chain_notify',
  sql`select pg_notify(${sql.placeholder('channel')}, ${sql.placeholder('payload')})`,
);

/** Sends a NOTIFY (delivered on commit when `db` is a transaction); prepared: it runs in every block's commit. */
export async function notify(db: Db, channel: string, payload: string): Promise<void> {
  await pgNotify(db, { channel, payload });
}

type ListenResult = (() => Promise<void>) | { unlisten?: () => Promise<void> };
interface ListeningClient {
  listen(channel: string, fn: (payload: string) => void): Promise<ListenResult>;
}

/**
 * LISTENs on a channel through the driver drizzle wraps (postgres.js keeps one dedicated connection and
 * re-listens after a reconnect; PGlite delivers its own NOTIFYs). Services receive the drizzle instance only,
 * so the driver is reached through drizzle's `$client`. Resolves to a function that stops listening, or
 * undefined when the driver cannot listen (callers then rely on polling).
 */
export async function listen(
  db: Db,
  channel: string,
  fn: (payload: string) => void,
): Promise<(() => Promise<void>) | undefined> {
  const client = (db as unknown as { $client?: Partial<ListeningClient> }).$client;
  if (typeof client?.listen !== 'function') return undefined;
  const result = await (client as ListeningClient).listen(channel, fn);
  if (typeof result === 'function') return result;
  return result.unlisten ? () => result.unlisten!() : undefined;
}
