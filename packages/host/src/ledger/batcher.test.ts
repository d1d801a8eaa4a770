import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { createWriteQueue } from './batcher.js';

const log = createLogger('test', 'silent');

/** A queue whose batches are collected (as lists of item names) once the current turn has flushed. */
function collecting(o: { maxBatch?: number; maxBatchBytes?: number } = {}) {
  const batches: string[][] = [];
  const queue = createWriteQueue<{ name: string; bytes: number }>({
    maxBatch: o.maxBatch ?? 100,
    maxBatchBytes: o.maxBatchBytes ?? 1000,
    intervalMs: 0,
    log,
    run: async (batch) => {
      batches.push(batch.map((w) => w.name));
    },
    fail: () => {},
  });
  return { queue, batches, flushed: () => new Promise((resolve) => setImmediate(resolve)) };
}

describe('ledger write queue', () => {
  it('sends the items of one turn of the event loop as one batch', async () => {
    const { queue, batches, flushed } = collecting();
    for (const name of ['a', 'b', 'c']) queue.enqueue({ name, bytes: 1 });
    await flushed();
    expect(batches).toEqual([['a', 'b', 'c']]);
  });

  it('splits a turn by count and by bytes, and sends an item over the byte budget alone', async () => {
    const { queue, batches, flushed } = collecting({ maxBatch: 2, maxBatchBytes: 10 });
    queue.enqueue({ name: 'a', bytes: 4 });
    queue.enqueue({ name: 'b', bytes: 4 });
    queue.enqueue({ name: 'c', bytes: 8 });
    queue.enqueue({ name: 'big', bytes: 50 });
    queue.enqueue({ name: 'd', bytes: 1 });
    await flushed();
    expect(batches).toEqual([['a', 'b'], ['c'], ['big'], ['d']]);
  });

  it('settles the items of a batch whose run throws', async () => {
    const failed: string[] = [];
    const queue = createWriteQueue<{ name: string; bytes: number }>({
      maxBatch: 10,
      maxBatchBytes: 100,
      intervalMs: 0,
      log,
      run: async () => {
        throw new Error('bug');
      },
      fail: (batch) => failed.push(...batch.map((w) => w.name)),
    });
    queue.enqueue({ name: 'a', bytes: 1 });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(failed).toEqual(['a']);
  });
});
