import { describe, expect, it } from 'vitest';
import { type Block, GENESIS_PREVIOUS_HASH, makeTransaction, transactionsRoot } from './block.js';
import { blockTransactions, nextHeader, pickTransactions } from './block-assembly.js';

const tx = (id: string) => makeTransaction(id, 'test', { id }, '2026-01-01T00:00:00.000Z');
const ids = (txs: readonly { id: string }[]) => txs.map((t) => t.id);
const none = new Set<string>();

describe('pickTransactions', () => {
  it("takes the table's transactions first, then the queue's, at most maxBlockTx in all", () => {
    const picked = pickTransactions({
      rows: [tx('t1'), tx('t2')],
      skip: none,
      queue: [tx('q1'), tx('q2'), tx('q3')],
      maxBlockTx: 4,
    });
    expect(ids(picked.fromTable)).toEqual(['t1', 't2']);
    expect(ids(picked.fromQueue)).toEqual(['q1', 'q2']);
    expect(ids(picked.rest)).toEqual(['q3']);
    expect(picked.tableFull).toBe(false);
  });

  it('takes only from the queue when the table was not read', () => {
    const picked = pickTransactions({ rows: [], skip: none, queue: [tx('q1')], maxBlockTx: 4 });
    expect(picked.fromTable).toEqual([]);
    expect(ids(picked.fromQueue)).toEqual(['q1']);
    expect(picked.rest).toEqual([]);
    expect(picked.tableFull).toBe(false);
  });

  it('leaves out the transactions of a block still being stored, and says when the read was full', () => {
    const picked = pickTransactions({
      rows: [tx('s1'), tx('t1'), tx('t2')],
      skip: new Set(['s1']),
      queue: [tx('q1')],
      maxBlockTx: 2,
    });
    expect(ids(picked.fromTable)).toEqual(['t1', 't2']);
    expect(picked.fromQueue).toEqual([]);
    expect(ids(picked.rest)).toEqual(['q1']);
    // maxBlockTx + skipped rows were returned: more may be waiting in the table.
    expect(picked.tableFull).toBe(true);
  });

  it('puts an id waiting both in the table and in the queue in once, and drops its queued copy', () => {
    const picked = pickTransactions({
      rows: [tx('same')],
      skip: none,
      queue: [tx('same'), tx('q1')],
      maxBlockTx: 10,
    });
    expect(ids(blockTransactions(picked))).toEqual(['same', 'q1']);
    expect(picked.rest).toEqual([]);
  });
});

describe('nextHeader', () => {
  const now = '2026-03-01T10:00:00.000Z';
  const base: Block = {
    index: 4,
    timestamp: '2026-03-01T09:00:00.000Z',
    previousHash: 'a'.repeat(64),
    merkleRoot: 'b'.repeat(64),
    difficulty: 12,
    nonce: 7,
    hash: 'c'.repeat(64),
  };

  it('starts the chain with the genesis header', () => {
    const header = nextHeader({ base: undefined, txs: [], now, difficulty: 8 });
    expect(header).toEqual({
      index: 0,
      timestamp: now,
      previousHash: GENESIS_PREVIOUS_HASH,
      merkleRoot: transactionsRoot([]),
      difficulty: 8,
    });
  });

  it('follows its base, with the root of its transactions', () => {
    const txs = [tx('t1'), tx('q1')];
    const header = nextHeader({ base, txs, now, difficulty: 8 });
    expect(header.index).toBe(5);
    expect(header.previousHash).toBe(base.hash);
    expect(header.merkleRoot).toBe(transactionsRoot(txs));
    expect(header.timestamp).toBe(now);
  });

  it("is never earlier than its base, whatever the clock says, nor below the base's difficulty", () => {
    const header = nextHeader({ base, txs: [], now: '2026-03-01T08:00:00.000Z', difficulty: 8 });
    expect(header.timestamp).toBe(base.timestamp);
    expect(header.difficulty).toBe(12);
    expect(nextHeader({ base, txs: [], now, difficulty: 16 }).difficulty).toBe(16);
  });
});
