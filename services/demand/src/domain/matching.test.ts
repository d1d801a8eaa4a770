import { describe, expect, it } from 'vitest';
import { parseDate } from './calendar.js';
import type { Household } from './demand.js';
import { cellDistanceKm, gridCell } from './location-precision.js';
import { matchSupply, type OpenSupply } from './matching.js';

const d = (s: string) => parseDate(s) as Date;
const home = (consumerId: string, latitude: number, item: Partial<Household['items'][number]> = {}): Household => ({
  consumerId,
  latitude,
  longitude: 5,
  radiusKm: 10,
  items: [
    {
      crop: 'tomato',
      quantityPerWeek: 2,
      unit: 'kg',
      currency: 'EUR',
      organicOnly: false,
      localOnly: false,
      seasons: ['spring', 'summer', 'autumn', 'winter'],
      ...item,
    },
  ],
});
// Two weeks (Mondays 1 and 8 June).
const supply: OpenSupply = {
  id: 'sup_1',
  growerId: 'usr_g',
  crop: 'tomato',
  unit: 'kg',
  price: 300,
  currency: 'EUR',
  organic: false,
  remainingKg: 6,
  from: d('2026-06-01'),
  to: d('2026-06-14'),
  latitude: 52,
  longitude: 5,
};

describe('matching supply to demand', () => {
  it('serves the nearest first, each up to its demand over the window, until the supply runs out', () => {
    const out = matchSupply([supply], [home('far', 52.2), home('near', 52.01)], [], new Set(), 50);
    expect(out.map((a) => [a.consumerId, a.quantityKg])).toEqual([
      ['near', 4],
      ['far', 2],
    ]);
    // Distances are between grid cells (domain/location-precision.ts), not between the points.
    expect(out[0]?.distanceKm).toBe(Math.round(cellDistanceKm(supply, home('near', 52.01)) * 1000) / 1000);
  });

  it('matches by cell: a household anywhere in its cell answers alike, and radii are rounded up to 5 km', () => {
    const c = gridCell({ latitude: 52.1, longitude: 5 });
    const corners = [
      { latitude: c.latitude - 0.02, longitude: c.longitude - 0.03 },
      { latitude: c.latitude + 0.02, longitude: c.longitude + 0.03 },
    ];
    const answers = corners.map((p) =>
      matchSupply([supply], [{ ...home('h', 0), ...p }], [], new Set(), 0.02).map((a) => a.distanceKm),
    );
    expect(answers[0]).toEqual(answers[1]);
    expect(matchSupply([{ ...supply, ...c }], [{ ...home('h', 0), ...corners[0] }], [], new Set(), 0.02)).toHaveLength(
      1,
    );
  });

  it('leaves out households too far, too cheap, organic-only or local-only out of their radius', () => {
    const homes = [
      home('distant', 53),
      home('cheap', 52.01, { maxPrice: 250 }),
      home('organic', 52.01, { organicOnly: true }),
      home('local', 52.2, { localOnly: true }),
      home('dollars', 52.01, { maxPrice: 900, currency: 'USD' }),
      home('pieces', 52.01, { unit: 'piece', quantityPerWeek: 10, maxPrice: 40 }),
    ];
    const out = matchSupply([supply], homes, [], new Set(), 50);
    // 40 cents a piece of 0.12 kg = 3.33 EUR/kg, at least the supply's 3 EUR/kg: 10 × 0.12 × 2 weeks = 2.4 kg.
    expect(out.map((a) => [a.consumerId, a.quantityKg])).toEqual([['pieces', 2.4]]);
  });

  it('does not match a pair again, nor demand already met by an overlapping supply', () => {
    const pairs = new Set(['sup_1\nnear']);
    const met = [{ consumerId: 'far', crop: 'tomato', quantityKg: 3, from: d('2026-06-05'), to: d('2026-06-20') }];
    const out = matchSupply([supply], [home('near', 52.01), home('far', 52.2)], met, pairs, 50);
    expect(out.map((a) => [a.consumerId, a.quantityKg])).toEqual([['far', 1]]);
  });
});
