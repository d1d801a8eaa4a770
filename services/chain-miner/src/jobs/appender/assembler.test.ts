import { describe, expect, it } from 'vitest';
import { makeTransaction, type Transaction } from '../../domain/block.js';
import { createAssembler } from './assembler.js';

const tx = (id: string) => makeTransaction(id, 'test', { id }, '2026-01-01T00:00:00.000Z');
const ids = (txs: readonly Transaction[]) => txs.map((t) => t.id);

/** An assembler over an in-memory table, with a clock the test moves. */
function setUp(table: Transaction[] = [], maxBlockTx = 3) {
  const clock = { now: 0 };
  const reads: number[] = [];
  const assembler = createAssembler({
    maxBlockTx,
    pollMs: 500,
    readTable: async (limit) => {
      reads.push(limit);
      return table.slice(0, limit);
    },
    now: () => clock.now,
  });
  return { assembler, clock, reads, table };
}

describe('assembler', () => {
  it("fills a block with the table's transactions first, then the queue's", async () => {
    const { assembler } = setUp([tx('t1')]);
    for (const id of ['q1', 'q2', 'q3']) assembler.accept(tx(id));
    const taken = await assembler.take();
    expect(ids(taken.fromTable)).toEqual(['t1']);
    expect(ids(taken.fromQueue)).toEqual(['q1', 'q2']);
    expect(assembler.queued()).toBe(1);
  });

  it('reads the table again only when told it changed, or after the poll interval', async () => {
    const { assembler, clock, reads } = setUp();
    await assembler.take();
    expect(reads).toHaveLength(1);
    expect(assembler.hasMore()).toBe(false);
    clock.now = 499;
    await assembler.take();
    expect(reads).toHaveLength(1);
    assembler.tableChanged();
    expect(assembler.hasMore()).toBe(true);
    await assembler.take();
    expect(reads).toHaveLength(2);
    clock.now = 999;
    await assembler.take();
    expect(reads).toHaveLength(3);
  });

  it('keeps reading after a full read, and skips the transactions of the block being stored', async () => {
    const stored = [tx('s1')];
    const { assembler, reads } = setUp([...stored, tx('t1'), tx('t2'), tx('t3'), tx('t4')]);
    const taken = await assembler.take(stored);
    expect(reads).toEqual([4]);
    expect(ids(taken.fromTable)).toEqual(['t1', 't2', 't3']);
    expect(assembler.hasMore()).toBe(true);
  });

  it('puts transactions back at the front, withdraws and drains the queue', async () => {
    const { assembler } = setUp();
    assembler.accept(tx('q1'));
    expect(assembler.accept(tx('q2'))).toBe(2);
    assembler.putBack([tx('p1')]);
    expect(assembler.withdraw(['q1', 'unknown'])).toEqual(['q1']);
    expect(ids(assembler.drain())).toEqual(['p1', 'q2']);
    expect(assembler.queued()).toBe(0);
  });
});
