import { type Db, fixedStatement, insertFromJson } from '@rootline/db';
import { asc, count, sql } from 'drizzle-orm';
import type { Transaction } from '../domain/block.js';
import { mempool } from './schema.js';

/** A transaction's columns, as both the mempool and the chain store them. */
export function transactionColumns(t: Transaction) {
  return { id: t.id, type: t.type, payload: t.payload, payloadHash: t.payloadHash, timestamp: t.timestamp };
}

/**
 * Adds accepted transactions to the shared mempool in one statement, in arrival order (so `seq` keeps it). The
 * rows travel as one JSON parameter: a batch of any size costs one bind and one parse, where a VALUES list costs
 * five parameters per row. An id already waiting there (a retried submission of a chosen id) is kept once.
 */
export async function addPending(db: Db, txs: readonly Transaction[]): Promise<void> {
  if (txs.length === 0) return;
  await db.execute(sql`${insertFromJson(mempool, txs.map(transactionColumns))} on conflict (id) do nothing`);
}

/** The oldest waiting transactions, in arrival order. */
export async function takePending(db: Db, limit: number): Promise<Transaction[]> {
  return db
    .select({
      id: mempool.id,
      type: mempool.type,
      payload: mempool.payload,
      payloadHash: mempool.payloadHash,
      timestamp: mempool.timestamp,
    })
    .from(mempool)
    .orderBy(asc(mempool.seq))
    .limit(limit);
}

// Runs in every block's transaction and on each withdrawal: a fixed text built once and run prepared (drizzle's
// query building cost more than the statement, see chain.repo.ts).
const removeIds = fixedStatement(
  'chain_remove_pending',
  sql`delete from ${mempool} where ${mempool.id} = any(array(select json_array_elements_text(${sql.placeholder('ids')}::json)))
    returning ${mempool.id} as "id"`,
);

/** Removes transactions from the mempool; resolves to the ids that were there. */
export async function removePending(db: Db, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await removeIds<{ id: string }>(db, { ids: JSON.stringify(ids) });
  return rows.map((r) => r.id);
}

export async function countPending(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(mempool);
  return row?.n ?? 0;
}
