import { describe, expect, it } from 'vitest';
import { areaProblem, inArea, inBox, placeOf } from './webhook-area.js';

const AMSTERDAM = [4.73, 52.27, 5.07, 52.43];

describe('webhook areas', () => {
  it('reads the place of an event from its location, else from its own country and city', () => {
    expect(
      placeOf({ plantId: 'plt_1', location: { latitude: 52.37, longitude: 4.9, city: 'Amsterdam', country: 'NL' } }),
    ).toEqual({ latitude: 52.37, longitude: 4.9, city: 'Amsterdam', country: 'NL' });
    expect(placeOf({ location: { latitude: 52.5, longitude: 5.5 } })).toEqual({ latitude: 52.5, longitude: 5.5 });
    expect(placeOf({ listingId: 'lst_1', country: 'FR', city: 'Lyon' })).toEqual({ country: 'FR', city: 'Lyon' });
    // A hidden plant (location null), and events without any place.
    expect(placeOf({ plantId: 'plt_1', location: null })).toBeNull();
    expect(placeOf({ listingId: 'lst_1', title: 'Basil' })).toBeNull();
    expect(placeOf(null)).toBeNull();
    expect(placeOf({ location: { latitude: '52', longitude: 4.9, city: ' ' } })).toBeNull();
  });

  it('contains a point in a box, edges included', () => {
    expect(inBox(AMSTERDAM, 52.37, 4.9)).toBe(true);
    expect(inBox(AMSTERDAM, 52.27, 4.73)).toBe(true);
    expect(inBox(AMSTERDAM, 52.43, 5.07)).toBe(true);
    expect(inBox(AMSTERDAM, 48.86, 2.35)).toBe(false);
    expect(inBox(AMSTERDAM, 52.44, 4.9)).toBe(false);
    expect(inBox(AMSTERDAM, 52.37, 5.08)).toBe(false);
  });

  it('reads a box with minLon greater than maxLon as crossing the antimeridian', () => {
    const fiji = [177, -20, -178, -15];
    expect(inBox(fiji, -17.7, 178.4)).toBe(true);
    expect(inBox(fiji, -17.7, -179.5)).toBe(true);
    expect(inBox(fiji, -17.7, 180)).toBe(true);
    expect(inBox(fiji, -17.7, -180)).toBe(true);
    expect(inBox(fiji, -17.7, 0)).toBe(false);
    expect(inBox(fiji, -17.7, 176)).toBe(false);
    expect(inBox(fiji, -10, 178.4)).toBe(false);
    // 180 and -180 are the same meridian, on either side.
    expect(inBox([-180, 0, -170, 10], 5, 180)).toBe(true);
  });

  it('matches a region by country code and city, ignoring case', () => {
    const place = { latitude: 52.37, longitude: 4.9, city: 'Amsterdam', country: 'NL' };
    expect(inArea({ country: 'NL' }, place)).toBe(true);
    expect(inArea({ country: 'nl' }, { country: 'Nl' })).toBe(true);
    expect(inArea({ country: 'NL', city: 'amsterdam' }, place)).toBe(true);
    expect(inArea({ country: 'NL', city: 'Rotterdam' }, place)).toBe(false);
    expect(inArea({ country: 'FR' }, place)).toBe(false);
    // The country must be the code: a name written out does not match.
    expect(inArea({ country: 'NL' }, { country: 'Netherlands' })).toBe(false);
    // A place without a city matches no city.
    expect(inArea({ country: 'NL', city: 'Amsterdam' }, { country: 'NL' })).toBe(false);
  });

  it('needs a place in both the box and the region when an area names both', () => {
    const area = { bbox: AMSTERDAM, country: 'NL' };
    expect(inArea(area, { latitude: 52.37, longitude: 4.9, country: 'NL' })).toBe(true);
    expect(inArea(area, { latitude: 52.37, longitude: 4.9 })).toBe(false);
    expect(inArea(area, { country: 'NL' })).toBe(false);
    expect(inArea({ bbox: AMSTERDAM }, { country: 'NL', city: 'Amsterdam' })).toBe(false);
    expect(inArea({ bbox: AMSTERDAM }, null)).toBe(false);
  });

  it('refuses unusable areas and accepts boxes across the antimeridian', () => {
    expect(areaProblem({ bbox: AMSTERDAM })).toBeNull();
    expect(areaProblem({ bbox: [170, -50, -170, -30] })).toBeNull();
    expect(areaProblem({ country: 'NL', city: 'Amsterdam' })).toBeNull();
    expect(areaProblem({ bbox: AMSTERDAM, country: 'NL' })).toBeNull();
    expect(areaProblem({})).toMatch(/give bbox/);
    expect(areaProblem({ bbox: [4.73, 52.43, 5.07, 52.27] })).toMatch(/minLat is greater than maxLat/);
    expect(areaProblem({ bbox: [4.73, 52.27, 185, 52.43] })).toMatch(/longitudes/);
    expect(areaProblem({ bbox: [4.73, -95, 5.07, 52.43] })).toMatch(/latitudes/);
    expect(areaProblem({ bbox: [4.73, 52.27, 5.07] })).toMatch(/four numbers/);
    expect(areaProblem({ city: 'Amsterdam' })).toMatch(/country too/);
  });
});
