import { describe, expect, it } from 'vitest';
import { idFromKey, newId } from './ids.js';

describe('idFromKey', () => {
  it('names the same id for the same key and prefix, in the shape of newId', () => {
    const a = idFromKey('plt', 'ref-1');
    expect(a).toBe(idFromKey('plt', 'ref-1'));
    expect(a).toMatch(/^plt_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(a.length).toBe(newId('plt', Date.now()).length);
  });

  it('names different ids for different keys or prefixes', () => {
    expect(idFromKey('plt', 'ref-1')).not.toBe(idFromKey('plt', 'ref-2'));
    expect(idFromKey('plt', 'ref-1').slice(4)).not.toBe(idFromKey('tx', 'ref-1').slice(3));
  });
});
