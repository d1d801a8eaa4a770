import { describe, expect, it } from 'vitest';
import { matchKind, normaliseSearchText, relevancePatterns, searchTexts } from './search.js';

describe('normaliseSearchText', () => {
  it('ignores case, accents and punctuation', () => {
    expect(normaliseSearchText('Crème Brûlée!')).toBe('creme brulee');
    expect(normaliseSearchText('  SÃO   Paulo, BR ')).toBe('sao paulo br');
    expect(normaliseSearchText('Straße')).toBe('strasse');
    expect(normaliseSearchText('Ærøskøbing')).toBe('aeroskobing');
    expect(normaliseSearchText('Łódź')).toBe('lodz');
  });

  it('keeps letters of other scripts and digits', () => {
    expect(normaliseSearchText('トマト 2')).toBe('トマト 2');
  });

  it('leaves nothing to match in punctuation alone', () => {
    expect(normaliseSearchText('%_!')).toBe('');
  });
});

describe('searchTexts', () => {
  it('joins species names, city and country, and the owner name, normalised', () => {
    expect(
      searchTexts({
        commonName: 'Tomate',
        scientificName: 'Solanum lycopersicum',
        city: 'Zürich',
        country: 'CH',
        ownerName: 'Élodie',
      }),
    ).toEqual({ species: 'tomate solanum lycopersicum', location: 'zurich ch', owner: 'elodie' });
    expect(searchTexts({ commonName: 'Mint', ownerName: 'Ada' }).location).toBe('');
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
