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
