import { describe, expect, it } from 'vitest';
import { matchKind, prefixEnd, reachableRanks, relevancePatterns, searchTexts } from './search.js';

describe('searchTexts', () => {
  it('joins species names, city and country (an ISO code with its English name), and the owner name, normalised', () => {
    expect(
      searchTexts({
        commonName: 'Tomate',
        scientificName: 'Solanum lycopersicum',
        city: 'Zürich',
        country: 'CH',
        ownerName: 'Élodie',
      }),
    ).toEqual({ species: 'tomate solanum lycopersicum', location: 'zurich ch switzerland', owner: 'elodie' });
    expect(searchTexts({ commonName: 'Mint', ownerName: 'Ada' }).location).toBe('');
    expect(searchTexts({ commonName: 'Mint', ownerName: 'Ada', country: 'Nederland' }).location).toBe('nederland');
  });
});

describe('relevance', () => {
  it('orders exact, prefix, word, substring', () => {
    expect(relevancePatterns('basil')).toEqual({
      exact: 'basil',
      prefix: 'basil%',
      word: '% basil%',
      substring: '%basil%',
    });
    expect([0, 1, 2, 3].map(matchKind)).toEqual(['exact', 'prefix', 'word', 'substring']);
  });
});

describe('short queries', () => {
  it('reach exact, prefix and word under 3 characters, all four kinds from 3 on', () => {
    expect(reachableRanks('a')).toEqual([0, 1, 2]);
    expect(reachableRanks('nl')).toEqual([0, 1, 2]);
    expect(reachableRanks('ü1')).toEqual([0, 1, 2]);
    expect(reachableRanks('abc')).toEqual([0, 1, 2, 3]);
    expect(reachableRanks('a b')).toEqual([0, 1, 2, 3]);
  });

  it('bound the texts that start with q in byte order', () => {
    expect(prefixEnd('to')).toBe('tp');
    expect(prefixEnd('a9')).toBe('a:');
    expect(prefixEnd('zé')).toBe('zê');
    const starts = ['to', 'tomato', 'to z', 'to\u{10FFFF}'];
    for (const t of starts) expect(Buffer.compare(Buffer.from(t), Buffer.from(prefixEnd('to')))).toBe(-1);
    expect(Buffer.compare(Buffer.from('tp'), Buffer.from(prefixEnd('to')))).toBe(0);
  });
});
