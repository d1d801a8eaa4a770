import { describe, expect, it } from 'vitest';
import { createSessionCache } from './session-cache.js';

describe('createSessionCache', () => {
  const clock = () => {
    let t = 1_000;
    return { now: () => t, advance: (ms: number) => (t += ms) };
  };

  it('remembers a session until its time runs out', () => {
    const c = clock();
    const cache = createSessionCache<string>({ ttlMs: 100, max: 10, now: c.now });
    cache.set('ses_1', 'usr_1', 'alice');
    expect(cache.get('ses_1')).toBe('alice');
    c.advance(99);
    expect(cache.get('ses_1')).toBe('alice');
    c.advance(1);
    expect(cache.get('ses_1')).toBeUndefined();
  });

  it('forgets one session, or every session of an account', () => {
    const cache = createSessionCache<string>({ ttlMs: 1000, max: 10 });
    cache.set('ses_1', 'usr_1', 'a');
    cache.set('ses_2', 'usr_1', 'b');
    cache.set('ses_3', 'usr_2', 'c');
    cache.dropSession('ses_1');
    expect(cache.get('ses_1')).toBeUndefined();
    expect(cache.get('ses_2')).toBe('b');
    cache.dropUser('usr_1');
    expect(cache.get('ses_2')).toBeUndefined();
    expect(cache.get('ses_3')).toBe('c');
  });

  it('drops the oldest entry when full, and caches nothing with ttl 0', () => {
    const cache = createSessionCache<number>({ ttlMs: 1000, max: 2 });
    cache.set('a', 'u', 1);
    cache.set('b', 'u', 2);
    cache.set('c', 'u', 3);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(2);
    const off = createSessionCache<number>({ ttlMs: 0, max: 2 });
    off.set('a', 'u', 1);
    expect(off.get('a')).toBeUndefined();
  });
});
