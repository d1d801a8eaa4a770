import type { NodeRef } from '@rootline/domain';

/**
 * c2sp.org/tlog-tiles over the stored perfect subtrees: the i-th hash of tile n at level l is the Merkle hash of
 * leaves [(n·256 + i)·256^l, (n·256 + i + 1)·256^l), which is the stored subtree of Merkle level 8·l and index
 * n·256 + i. So a tile is 1 to 256 stored nodes read as they are.
 */
export const TILE_WIDTH = 256;

/** Whether the tree of `size` entries holds the tile (full when width is 256; partial otherwise). */
export function tileInTree(level: number, index: number, width: number, size: number): boolean {
  const units = Math.floor(size / TILE_WIDTH ** level);
  return width >= 1 && width <= TILE_WIDTH && index * TILE_WIDTH + width <= units;
}

/** The stored subtrees that make up a tile, in order. */
export function tileNodes(level: number, index: number, width: number): NodeRef[] {
  return Array.from({ length: width }, (_, i) => ({ level: 8 * level, idx: index * TILE_WIDTH + i }));
}

/** An entry bundle: each entry as a big-endian uint16 length and its bytes. */
export function entryBundle(entries: readonly Uint8Array[]): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    if (e.length > 0xffff) throw new Error('an entry longer than 65535 bytes does not fit an entry bundle');
    const len = Buffer.alloc(2);
    len.writeUInt16BE(e.length);
    parts.push(len, Buffer.from(e));
  }
  return Buffer.concat(parts);
}
