import type { CallContext } from '@rootline/contracts';
import { describe, expect, it } from 'vitest';
import { createSearchCache, searchKey } from './search-cache.js';

const caller: CallContext = { requestId: 'req_1' };
const writer: CallContext = { requestId: 'req_2', readPrimary: true };

function counted(answers: number[]) {
  let calls = 0;
  const compute = async () => {
    const total = answers[Math.min(calls, answers.length - 1)]!;
    calls++;
    return { items: [], total, totalIsEstimate: false };
  };
  return { compute, calls: () => calls };
}

describe('the search answer cache', () => {
  it('reuses an answer within its time, and computes it again after', async () => {
    let now = 1_000;
    const cache = createSearchCache({ ttlMs: 2000, now: () => now });
    const c = counted([1, 2]);
    const key = searchKey('tomato', ['species'], 0, 20);
    expect((await cache.get(key, caller, c.compute)).total).toBe(1);
    now += 1999;
    expect((await cache.get(key, caller, c.compute)).total).toBe(1);
    expect(c.calls()).toBe(1);
    now += 2;
    expect((await cache.get(key, caller, c.compute)).total).toBe(2);
    expect(c.calls()).toBe(2);
  });

  it('keeps answers apart by text, fields and page', async () => {
    const cache = createSearchCache({ ttlMs: 60_000 });
    const c = counted([1, 2, 3, 4]);
    const keys = [
      searchKey('tomato', ['species'], 0, 20),
      searchKey('tomato', ['species', 'location'], 0, 20),
      searchKey('tomato', ['species'], 20, 20),
      searchKey('tomatoes', ['species'], 0, 20),
    ];
    for (const key of keys) await cache.get(key, caller, c.compute);
    expect(c.calls()).toBe(4);
    expect(cache.size).toBe(4);
  });

  it('computes once for misses of one key that arrive together', async () => {
    const cache = createSearchCache({ ttlMs: 60_000 });
    const c = counted([7]);
    const key = searchKey('basil', ['species'], 0, 20);
    const answers = await Promise.all(Array.from({ length: 10 }, () => cache.get(key, caller, c.compute)));
    expect(answers.map((a) => a.total)).toEqual(Array(10).fill(7));
    expect(c.calls()).toBe(1);
  });

  it('answers a caller who just wrote afresh, and does not keep that answer', async () => {
    const cache = createSearchCache({ ttlMs: 60_000 });
    const c = counted([1, 2, 3]);
    const key = searchKey('mint', ['species'], 0, 20);
    expect((await cache.get(key, caller, c.compute)).total).toBe(1);
    expect((await cache.get(key, writer, c.compute)).total).toBe(2);
    expect((await cache.get(key, caller, c.compute)).total).toBe(1);
  });

  it('does not keep a failed computation', async () => {
    const cache = createSearchCache({ ttlMs: 60_000 });
    let calls = 0;
    const key = searchKey('thyme', ['species'], 0, 20);
    const failing = async () => {
      calls++;
      if (calls === 1) throw new Error('database unavailable');
      return { items: [], total: 5, totalIsEstimate: false };
    };
    await expect(cache.get(key, caller, failing)).rejects.toThrow('database unavailable');
    expect((await cache.get(key, caller, failing)).total).toBe(5);
  });

  it('computes every search when its time is 0', async () => {
    const cache = createSearchCache({ ttlMs: 0 });
    const c = counted([1, 2]);
    const key = searchKey('sage', ['species'], 0, 20);
    await cache.get(key, caller, c.compute);
    expect((await cache.get(key, caller, c.compute)).total).toBe(2);
  });
});
