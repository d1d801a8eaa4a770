import { describe, expect, it } from 'vitest';
import { entryBundle, tileInTree, tileNodes } from './tiles.js';

describe('tlog tiles', () => {
  it('has the tiles of the specification’s example tree of 70,000 entries', () => {
    const s = 70_000;
    expect(tileInTree(0, 272, 256, s)).toBe(true);
    expect(tileInTree(0, 273, 256, s)).toBe(false);
    expect(tileInTree(0, 273, 112, s)).toBe(true);
    expect(tileInTree(0, 273, 113, s)).toBe(false);
    expect(tileInTree(1, 0, 256, s)).toBe(true);
    expect(tileInTree(1, 1, 17, s)).toBe(true);
    expect(tileInTree(1, 1, 18, s)).toBe(false);
    expect(tileInTree(2, 0, 1, s)).toBe(true);
    expect(tileInTree(2, 0, 2, s)).toBe(false);
    expect(tileInTree(3, 0, 1, s)).toBe(false);
  });

  it('reads a tile from the stored subtrees of level 8·L', () => {
    expect(tileNodes(1, 2, 2)).toEqual([
      { level: 8, idx: 512 },
      { level: 8, idx: 513 },
    ]);
  });

  it('bundles entries with big-endian uint16 lengths', () => {
    expect(entryBundle([Buffer.from('ab'), Buffer.from('')]).toString('hex')).toBe('00026162' + '0000');
    expect(() => entryBundle([Buffer.alloc(65_536)])).toThrow();
  });
});
