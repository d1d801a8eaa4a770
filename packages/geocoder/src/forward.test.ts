import { describe, expect, it } from 'vitest';
import { editDistance, searchPlaces } from './forward.js';

describe('searchPlaces', () => {
  it('finds a city as people type it: any case, without its accents', () => {
    expect(searchPlaces('zurich')[0]).toMatchObject({ name: 'Zürich', country: 'CH', match: 'exact' });
    expect(searchPlaces('SÃO PAULO'.replace('Ã', 'A'))[0]).toMatchObject({ name: 'São Paulo', country: 'BR' });
    expect(searchPlaces('Malmo')[0]).toMatchObject({ name: 'Malmö', country: 'SE' });
  });

  it('puts the largest place of a name first, and a country after a comma narrows it', () => {
    expect(searchPlaces('paris')[0]).toMatchObject({ name: 'Paris', country: 'FR' });
    expect(searchPlaces('Paris, United States').every((p) => p.country === 'US')).toBe(true);
    expect(searchPlaces('paris, us')[0]).toMatchObject({ country: 'US' });
  });

  it('completes a beginning', () => {
    expect(searchPlaces('rotterd')[0]).toMatchObject({ name: 'Rotterdam', match: 'prefix' });
  });

  it('forgives typos: a swapped, a missing and a wrong letter', () => {
    expect(searchPlaces('Amsterdma')[0]).toMatchObject({ name: 'Amsterdam', match: 'typo' });
    expect(searchPlaces('Barcelna')[0]).toMatchObject({ name: 'Barcelona', country: 'ES' });
    expect(searchPlaces('Lisbom')[0]).toMatchObject({ name: 'Lisbon', country: 'PT' });
  });

  it('answers nothing for an empty query', () => {
    expect(searchPlaces('  ,  ')).toEqual([]);
  });
});

describe('editDistance', () => {
  it('counts a transposition as one edit and gives up past the bound', () => {
    expect(editDistance('amsterdma', 'amsterdam', 2)).toBe(1);
    expect(editDistance('abc', 'xyz', 1)).toBe(2);
  });
});
