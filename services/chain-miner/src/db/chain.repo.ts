import { type Db, fixedStatement } from '@rootline/db';
import { and, asc, desc, eq, gte, lte, sql } from 'drizzle-orm';
import type { Block, Transaction } from '../domain/block.js';
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

// The statements below run once per submitted batch or per block. Built with drizzle on every call they cost
// more CPU than the ledger's own work (profiled at ~1,000 registrations/s: query building ~12 %, and an id list
// as `inArray` gave a new text per list size, parsed and described afresh); so each is a fixed text with its
// lists as one JSON parameter, built once and run prepared (`fixedStatement`).

const idsOfBlock = fixedStatement(
  'chain_transaction_ids_of_block',
  sql`select ${transactions.id} as "id" from ${transactions} where ${transactions.blockIndex} = ${sql.placeholder('index')}`,
);

/** Ids of the transactions a block holds. */
export async function transactionIdsOfBlock(db: Db, index: number): Promise<string[]> {
  const rows = await idsOfBlock<{ id: string }>(db, { index });
  return rows.map((r) => r.id);
}

// The block's fields come from subqueries by its primary key, not a join: the generic plan of a join made while
// the chain was short hashes every block per call (a sequential scan that grows with the chain, ADR 100).
const receiptsOf = fixedStatement(
  'chain_find_receipts',
  sql`select t."id" as "txId", t."block_index" as "blockIndex",
      (select b."hash" from ${blocks} b where b."index" = t."block_index") as "blockHash",
      (select b."timestamp" from ${blocks} b where b."index" = t."block_index") as "timestamp"
    from ${transactions} t
    where t."id" = any(array(select jsonb_array_elements_text(${sql.placeholder('ids')}::jsonb)))`,
);

/** Where each of the given transactions was recorded; ids not in a block are absent. */
export async function findReceipts(
  db: Db,
  ids: readonly string[],
): Promise<{ txId: string; blockIndex: number; blockHash: string; timestamp: string }[]> {
  if (ids.length === 0) return [];
  return receiptsOf(db, { ids: JSON.stringify(ids) });
}

/**
 * The block and its transactions in one statement: the transactions travel as one JSON parameter (in block
 * order: `position` is their ordinality) and take their `block_index` from the inserted block. `tx_total` is
 * the previous block's plus this block's count.
 */
const insertBlockWithTransactions = fixedStatement(
  'chain_insert_block',
  sql`with block as (
      insert into ${blocks} ("index", "hash", "previous_hash", "merkle_root", "timestamp", "difficulty", "nonce",
        "tx_count", "tx_total")
      values (${sql.placeholder('index')}::integer, ${sql.placeholder('hash')}, ${sql.placeholder('previousHash')},
        ${sql.placeholder('merkleRoot')}, ${sql.placeholder('timestamp')}, ${sql.placeholder('difficulty')}::integer,
        ${sql.placeholder('nonce')}::bigint, ${sql.placeholder('txCount')}::integer,
        coalesce((select b."tx_total" from ${blocks} b where b."index" = ${sql.placeholder('index')}::integer - 1), 0)
          + ${sql.placeholder('txCount')}::integer)
      returning "index"
    )
    insert into ${transactions} ("id", "block_index", "position", "type", "payload", "payload_hash", "timestamp")
    select r."id", block."index", r."ordinality" - 1, r."type", r."payload", r."payload_hash", r."timestamp"
    from block, rows from (jsonb_to_recordset(${sql.placeholder('txs')}::jsonb)
      as ("id" text, "type" text, "payload" text, "payload_hash" text, "timestamp" text))
      with ordinality as r("id", "type", "payload", "payload_hash", "timestamp", "ordinality")
    order by r."ordinality"`,
);

/** Appends a block and its transactions (one statement); fails on a height that is already taken (the unique key). */
export async function insertBlock(db: Db, block: Block, txs: readonly Transaction[]): Promise<void> {
  // The block's header fields fill the placeholders of the same names.
  await insertBlockWithTransactions(db, {
    ...block,
    txCount: txs.length,
    txs: JSON.stringify(
      txs.map((t) => ({
        id: t.id,
        type: t.type,
        payload: t.payload,
        payload_hash: t.payloadHash,
        timestamp: t.timestamp,
      })),
    ),
  });
}

/** True when the error is PostgreSQL's unique violation (another writer took the height). */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
}
