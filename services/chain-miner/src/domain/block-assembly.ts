import { type Block, type BlockHeader, GENESIS_PREVIOUS_HASH, type Transaction, transactionsRoot } from './block.js';

/** The transactions of a block, by where they came from. */
export interface BlockContents {
  /** From the mempool table: submitted to other instances. */
  fromTable: Transaction[];
  /** From this instance's queue: submitted here. */
  fromQueue: Transaction[];
}

/** A mined block and where its transactions came from. */
export interface Mined extends BlockContents {
  block: Block;
}

/** The block's transactions in block order: the table's first, then the queue's. */
export function blockTransactions({ fromTable, fromQueue }: BlockContents): Transaction[] {
  return fromTable.length === 0 ? fromQueue : [...fromTable, ...fromQueue];
}

/**
 * Picks the transactions of the next block: the table's rows first (except `skip`, those of a block still being
 * stored), then the queue's, at most `maxBlockTx` in all. A chosen id may wait both in the table and in the queue
 * (submitted to two instances): it goes in once, and its queued copy is dropped. `rows` is what the table read
 * returned with a limit of `maxBlockTx + skip.size` (none when it was not read); `tableFull` says it returned that
 * many, so more may be waiting there. `rest` is the queue after the block took its part.
 */
export function pickTransactions(input: {
  rows: readonly Transaction[];
  skip: ReadonlySet<string>;
  queue: readonly Transaction[];
  maxBlockTx: number;
}): BlockContents & { rest: Transaction[]; tableFull: boolean } {
  const { rows, skip, queue, maxBlockTx } = input;
  const fromTable = rows.filter((t) => !skip.has(t.id)).slice(0, maxBlockTx);
  const inTable = new Set(fromTable.map((t) => t.id));
  const room = maxBlockTx - fromTable.length;
  const fromQueue = queue.slice(0, room).filter((t) => !inTable.has(t.id));
  return { fromTable, fromQueue, rest: queue.slice(room), tableFull: rows.length === maxBlockTx + skip.size };
}

/**
 * The header of the block after `base` (none: the genesis block), holding `txs`. Its timestamp is never earlier
 * than the previous block's, whatever the clock of a new appender says, and its difficulty never below the
 * previous block's nor below `difficulty`.
 */
export function nextHeader(input: {
  base: Block | undefined;
  txs: readonly Transaction[];
  /** The clock's time, ISO 8601. */
  now: string;
  difficulty: number;
}): BlockHeader {
  const { base, txs, now } = input;
  return {
    index: base ? base.index + 1 : 0,
    timestamp: base && base.timestamp > now ? base.timestamp : now,
    previousHash: base ? base.hash : GENESIS_PREVIOUS_HASH,
    merkleRoot: transactionsRoot(txs),
    difficulty: Math.max(input.difficulty, base?.difficulty ?? 0),
  };
}
