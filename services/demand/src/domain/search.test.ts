import { describe, expect, it } from 'vitest';
import { listingSearchText, queryWords } from './search.js';

describe('listing search text', () => {
  it('folds case, accents and punctuation in title and description', () => {
    expect(listingSearchText('Padrón peppers', 'Hot, or not?')).toBe('padron peppers hot or not');
  });

  it('splits a query into distinct words, at most eight', () => {
    expect(queryWords('Tomato  tomato, SEEDS')).toEqual(['tomato', 'seeds']);
    expect(queryWords('a b c d e f g h i j')).toHaveLength(8);
  });
});
