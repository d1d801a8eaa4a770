import { type Db, insertFromJson } from '@rootline/db';
import { and, asc, desc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import type { Block, Transaction } from '../domain/block.js';
import { transactionColumns } from './mempool.repo.js';
import { blocks, transactions } from './schema.js';

/** A stored block: its header, proof of work and number of transactions. */
export interface StoredBlock extends Block {
  txCount: number;
  /** Transactions in this block and all before it. */
  txTotal: number;
}

/** A stored transaction with its place in its block. */
export interface StoredTransaction extends Transaction {
  blockIndex: number;
  position: number;
}

const toBlock = (r: typeof blocks.$inferSelect): StoredBlock => ({
  index: r.index,
  hash: r.hash,
  previousHash: r.previousHash,
  merkleRoot: r.merkleRoot,
  timestamp: r.timestamp,
  difficulty: r.difficulty,
  nonce: r.nonce,
  txCount: r.txCount,
  txTotal: r.txTotal,
});

/** The highest block, or undefined on an empty ledger. */
export async function findTip(db: Db): Promise<StoredBlock | undefined> {
  const [row] = await db.select().from(blocks).orderBy(desc(blocks.index)).limit(1);
  return row ? toBlock(row) : undefined;
}

export async function findBlockByHash(db: Db, hash: string): Promise<StoredBlock | undefined> {
  const [row] = await db.select().from(blocks).where(eq(blocks.hash, hash)).limit(1);
  return row ? toBlock(row) : undefined;
}

export async function findBlockByIndex(db: Db, index: number): Promise<StoredBlock | undefined> {
  const [row] = await db.select().from(blocks).where(eq(blocks.index, index)).limit(1);
  return row ? toBlock(row) : undefined;
}

/** Up to `limit` blocks from height `from` upwards, in order. */
export async function listBlocks(db: Db, from: number, limit: number): Promise<StoredBlock[]> {
  const rows = await db.select().from(blocks).where(gte(blocks.index, from)).orderBy(asc(blocks.index)).limit(limit);
  return rows.map(toBlock);
}

/** The transactions of the blocks from height `from` to `to` (inclusive), by block and position. */
export async function listTransactions(db: Db, from: number, to: number): Promise<StoredTransaction[]> {
  return db
    .select()
    .from(transactions)
    .where(and(gte(transactions.blockIndex, from), lte(transactions.blockIndex, to)))
    .orderBy(asc(transactions.blockIndex), asc(transactions.position));
}

export async function findTransaction(db: Db, id: string): Promise<StoredTransaction | undefined> {
  const [row] = await db.select().from(transactions).where(eq(transactions.id, id)).limit(1);
  return row;
}

/** Ids of the transactions a block holds. */
export async function transactionIdsOfBlock(db: Db, index: number): Promise<string[]> {
  const rows = await db.select({ id: transactions.id }).from(transactions).where(eq(transactions.blockIndex, index));
  return rows.map((r) => r.id);
}

/** Where each of the given transactions was recorded; ids not in a block are absent. */
export async function findReceipts(
  db: Db,
  ids: readonly string[],
): Promise<{ txId: string; blockIndex: number; blockHash: string; timestamp: string }[]> {
  if (ids.length === 0) return [];
  return db
    .select({ txId: transactions.id, blockIndex: blocks.index, blockHash: blocks.hash, timestamp: blocks.timestamp })
    .from(transactions)
    .innerJoin(blocks, eq(blocks.index, transactions.blockIndex))
    .where(inArray(transactions.id, [...ids]));
}

/**
 * Appends a block and its transactions; fails on a height that is already taken (the unique key). The
 * transactions go in one statement with the rows as one JSON parameter (`insertFromJson`).
 */
export async function insertBlock(db: Db, block: Block, txs: readonly Transaction[]): Promise<void> {
  await db.insert(blocks).values({
    ...block,
    txCount: txs.length,
    txTotal: sql`coalesce((select ${blocks.txTotal} from ${blocks} where ${blocks.index} = ${block.index - 1}), 0) + ${txs.length}`,
  });
  if (txs.length === 0) return;
  await db.execute(
    insertFromJson(
      transactions,
      txs.map((t, position) => ({ ...transactionColumns(t), blockIndex: block.index, position })),
    ),
  );
}

/** True when the error is PostgreSQL's unique violation (another writer took the height). */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
}
