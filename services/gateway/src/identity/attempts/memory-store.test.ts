import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryStore } from './memory-store.js';

let now = 1_000_000;
const store = createMemoryStore(() => now);
afterEach(async () => {
  await store.reset('k');
});

describe('in-memory rate-limit store', () => {
  it('counts hits in a fixed window and starts a new one when it ends', async () => {
    expect(await store.hit('k', 1000)).toEqual({ count: 1, resetAt: 1_001_000 });
    now += 500;
    expect(await store.hit('k', 1000)).toEqual({ count: 2, resetAt: 1_001_000 });
    now += 500;
    expect(await store.hit('k', 1000)).toEqual({ count: 1, resetAt: 1_002_000 });
  });

  it('keeps blocks until they run out, and forgets keys on reset', async () => {
    await store.block('k', 2000);
    expect(await store.blockedFor('k')).toBe(2000);
    now += 1500;
    expect(await store.blockedFor('k')).toBe(500);
    now += 600;
    expect(await store.blockedFor('k')).toBe(0);
    await store.block('k', 1000);
    await store.hit('k', 1000);
    await store.reset('k');
    expect(await store.blockedFor('k')).toBe(0);
    expect((await store.hit('k', 1000)).count).toBe(1);
  });
});
