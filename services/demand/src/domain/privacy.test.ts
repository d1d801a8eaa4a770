import { distanceBandKm, LOCATION_PRECISION_KM } from '@rootline/contracts/demand';
import { AppError } from '@rootline/contracts/errors';
import { describe, expect, it } from 'vitest';
import type { Household } from './demand.js';
import { assertEnoughHouseholds, MIN_HOUSEHOLDS, matchAsSeenBy, withoutSmallGroups } from './privacy.js';

const item = (crop: Household['items'][number]['crop']): Household['items'][number] => ({
  crop,
  quantityPerWeek: 1,
  unit: 'kg',
  currency: 'EUR',
  organicOnly: false,
  localOnly: false,
  seasons: ['spring', 'summer', 'autumn', 'winter'],
});
const home = (consumerId: string, crops: Household['items'][number]['crop'][]): Household => ({
  consumerId,
  latitude: 52,
  longitude: 5,
  radiusKm: 10,
  items: crops.map(item),
});

describe('distanceBandKm', () => {
  it('rounds up to the next 5 km step, never to 0', () => {
    expect(LOCATION_PRECISION_KM).toBe(5);
    expect(distanceBandKm(0)).toBe(5);
    expect(distanceBandKm(0.013)).toBe(5);
    expect(distanceBandKm(5)).toBe(5);
    expect(distanceBandKm(5.001)).toBe(10);
    expect(distanceBandKm(13.042)).toBe(15);
  });

  it('gives the same answer for points a few hundred metres apart (no trilateration to the metre)', () => {
    expect(new Set([12.1, 12.9, 13.6, 14.4].map((km) => distanceBandKm(km)))).toEqual(new Set([15]));
  });
});

describe('matchAsSeenBy', () => {
  const match = { id: 'mch_1', consumerId: 'usr_alice', growerId: 'usr_bob', distanceKm: 13.042 };

  it('hides the consumer and coarsens the distance for the grower', () => {
    expect(matchAsSeenBy(match, { id: 'usr_bob', role: 'GROWER' })).toEqual({
      id: 'mch_1',
      consumerId: null,
      growerId: 'usr_bob',
      distanceKm: 15,
    });
  });

  it('shows the match whole to its consumer and to an ADMIN', () => {
    expect(matchAsSeenBy(match, { id: 'usr_alice', role: 'USER' })).toEqual(match);
    expect(matchAsSeenBy(match, { id: 'usr_admin', role: 'ADMIN' })).toEqual(match);
  });
});

describe('assertEnoughHouseholds', () => {
  it(`refuses fewer than ${MIN_HOUSEHOLDS} distinct households with reason too-few-households`, () => {
    const four = ['a', 'b', 'c', 'd'].map((id) => home(id, ['tomato']));
    let caught: unknown;
    try {
      assertEnoughHouseholds([...four, home('a', ['kale'])]);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(AppError);
    expect(caught).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ field: 'body/region', reason: 'too-few-households', minimum: 5 }],
    });
    expect(() => assertEnoughHouseholds([...four, home('e', ['tomato'])])).not.toThrow();
  });
});

describe('withoutSmallGroups', () => {
  it('keeps crops at least k households ask for and withholds the others', () => {
    const homes = [
      home('a', ['tomato', 'basil']),
      home('b', ['tomato']),
      home('c', ['tomato']),
      home('d', ['tomato', 'kale']),
      home('e', ['tomato']),
      home('f', ['basil']),
    ];
    const { households, suppressed } = withoutSmallGroups(homes);
    expect(suppressed).toEqual(['basil', 'kale']);
    expect(households.map((h) => h.consumerId)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(households.flatMap((h) => h.items.map((i) => i.crop))).toEqual(Array(5).fill('tomato'));
  });

  it('withholds everything from a group smaller than k', () => {
    const { households, suppressed } = withoutSmallGroups([home('a', ['tomato']), home('b', ['tomato'])]);
    expect(households).toEqual([]);
    expect(suppressed).toEqual(['tomato']);
  });
});
