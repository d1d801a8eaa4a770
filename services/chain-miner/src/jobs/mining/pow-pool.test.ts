import { hash } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { meetsDifficulty } from '../../domain/pow-search.mjs';
import { createPowPool } from './pow-pool.js';

describe('proof-of-work threads', () => {
  const pool = createPowPool(2);
  afterAll(() => pool.close());

  it('finds a nonce that meets the difficulty, within the range asked for', async () => {
    const result = await pool.search('7|prefix|', 10, 1000, 1000 + 2 ** 24);
    expect(result.status).toBe('found');
    if (result.status !== 'found') return;
    expect(result.nonce).toBeGreaterThanOrEqual(1000);
    expect(result.hash).toBe(hash('sha256', `7|prefix|${result.nonce}`));
    expect(meetsDifficulty(result.hash, 10)).toBe(true);
  });

  it('mines off the event loop: timers keep firing during a long search', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const search = pool.search('no-solution|', 64, 0, 2 ** 40);
    await new Promise((r) => setTimeout(r, 300));
    pool.abort();
    clearInterval(timer);
    expect(await search).toEqual({ status: 'aborted' });
    // The main thread never blocks: about 30 ticks in 300 ms, even on a busy machine more than a handful.
    expect(ticks).toBeGreaterThan(10);
  });

  it('stops a search promptly when a newer one starts, and counts the hashes', async () => {
    const before = pool.hashes();
    const first = pool.search('first|', 64, 0, 2 ** 40);
    await new Promise((r) => setTimeout(r, 50));
    const second = pool.search('second|', 4, 0, 2 ** 20);
    expect(await first).toEqual({ status: 'aborted' });
    expect((await second).status).toBe('found');
    expect(pool.hashes()).toBeGreaterThan(before);
  });

  it('reports an exhausted range', async () => {
    expect(await pool.search('tiny|', 64, 0, 100)).toEqual({ status: 'exhausted' });
  });

  it('starts its threads with the first search and stops them when idle, still counting', async () => {
    const idle = createPowPool(2, undefined, 0, 100);
    try {
      expect(idle.live()).toBe(0);
      const first = await idle.search('idle-1|', 8, 0, 2 ** 24);
      expect(first.status).toBe('found');
      expect(idle.live()).toBe(2);
      const counted = idle.hashes();
      await new Promise((r) => setTimeout(r, 400));
      expect(idle.live()).toBe(0);
      // The next search starts them again, and the count goes on from where it was.
      const second = await idle.search('idle-2|', 8, 0, 2 ** 24);
      expect(second.status).toBe('found');
      if (second.status === 'found') expect(meetsDifficulty(second.hash, 8)).toBe(true);
      expect(idle.live()).toBe(2);
      expect(idle.hashes()).toBeGreaterThan(counted);
    } finally {
      await idle.close();
    }
    expect(idle.live()).toBe(0);
  });
});
