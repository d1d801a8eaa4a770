import { describe, expect, it } from 'vitest';
import { parseTilePath, tileIndexPath } from './tile-path.js';

describe('tlog tile paths', () => {
  it('writes and reads tile indexes as the specification’s example does (1234067 → x001/x234/067)', () => {
    expect(tileIndexPath(1234067)).toBe('x001/x234/067');
    expect(tileIndexPath(0)).toBe('000');
    expect(parseTilePath('0/x001/x234/067')).toEqual({ kind: 'hashes', level: 0, index: 1234067, width: 256 });
    expect(parseTilePath('entries/001.p/44')).toEqual({ kind: 'entries', level: 0, index: 1, width: 44 });
    expect(parseTilePath('2/000.p/1')).toEqual({ kind: 'hashes', level: 2, index: 0, width: 1 });
  });

  it('refuses malformed paths', () => {
    for (const p of ['0/1', '0/x000/001', '00/000', '64/000', '0/000.p/256', '0/000.p/0', '0/000.p/07', 'x/000']) {
      expect(parseTilePath(p), p).toBeUndefined();
    }
  });
});
