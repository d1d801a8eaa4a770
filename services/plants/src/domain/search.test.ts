import { describe, expect, it } from 'vitest';
import { matchKind, relevancePatterns, searchTexts } from './search.js';

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
