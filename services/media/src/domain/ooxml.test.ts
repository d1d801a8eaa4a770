import { describe, expect, it } from 'vitest';
import { checkDocxEntries } from './ooxml.js';

const docx = [
  { name: '[Content_Types].xml', compressedSize: 400, uncompressedSize: 1500 },
  { name: 'word/document.xml', compressedSize: 3000, uncompressedSize: 20_000 },
];

describe('checkDocxEntries', () => {
  it('accepts an OOXML word document', () => {
    expect(() => checkDocxEntries(docx)).not.toThrow();
  });
  it('refuses a zip that is not a word document', () => {
    expect(() => checkDocxEntries([{ name: 'a.txt', compressedSize: 1, uncompressedSize: 1 }])).toThrow(
      expect.objectContaining({ code: 'VALIDATION_ERROR', details: expect.objectContaining({ reason: 'type' }) }),
    );
  });
  it('refuses an entry that expands beyond the ratio (a bomb), from the announced sizes alone', () => {
    const bomb = [...docx, { name: 'word/media/z.bin', compressedSize: 10_000, uncompressedSize: 10_000_000 }];
    expect(() => checkDocxEntries(bomb)).toThrow(/zip bomb/);
  });
  it('refuses a total expansion beyond the limit and too many entries', () => {
    const big = Array.from({ length: 3 }, (_, i) => ({
      name: `word/m${i}.bin`,
      compressedSize: 90_000_000,
      uncompressedSize: 90_000_000,
    }));
    expect(() => checkDocxEntries([...docx, ...big])).toThrow(/expands to/);
    const many = Array.from({ length: 2001 }, (_, i) => ({ name: `x${i}`, compressedSize: 1, uncompressedSize: 1 }));
    expect(() => checkDocxEntries(many)).toThrow(/entries/);
  });
  it('refuses entry names that climb out of the archive', () => {
    expect(() => checkDocxEntries([...docx, { name: '../evil', compressedSize: 1, uncompressedSize: 1 }])).toThrow(
      /unsafe/,
    );
  });
});
