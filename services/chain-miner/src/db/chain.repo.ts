import type { Db } from '@rootline/db';
import { desc, eq, sql } from 'drizzle-orm';
import type { Block, Transaction } from '../domain/block.js';
import { blocks, transactions } from './schema.js';

const toBlock = (r: typeof blocks.$inferSelect): Block => ({
  index: r.index,
  hash: r.hash,
  previousHash: r.previousHash,
  merkleRoot: r.merkleRoot,
  timestamp: r.timestamp,
  difficulty: r.difficulty,
  nonce: r.nonce,
});

/** The highest block, or undefined on an empty ledger. */
export async function findTip(db: Db): Promise<Block | undefined> {
  const [row] = await db.select().from(blocks).orderBy(desc(blocks.index)).limit(1);
  return row ? toBlock(row) : undefined;
}

export async function countBlocks(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(blocks);
  return row?.n ?? 0;
}

export async function findBlockByHash(db: Db, hash: string): Promise<Block | undefined> {
  const [row] = await db.select().from(blocks).where(eq(blocks.hash, hash)).limit(1);
  return row ? toBlock(row) : undefined;
}

/** Appends a block and its transactions; fails on a height that is already taken (the unique key). */
export async function insertBlock(db: Db, block: Block, txs: readonly Transaction[]): Promise<void> {
  await db.insert(blocks).values({ ...block, txCount: txs.length });
  if (txs.length > 0) {
    await db.insert(transactions).values(txs.map((t, position) => ({ ...t, blockIndex: block.index, position })));
  }
}

/** True when the error is PostgreSQL's unique violation (another writer took the height). */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
}
