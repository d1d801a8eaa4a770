import { describe, expect, it } from 'vitest';
import { parseDate, weekStarts } from './calendar.js';
import { aggregateDemand, type Household } from './demand.js';

const d = (s: string) => parseDate(s) as Date;
const household = (consumerId: string, items: Household['items']): Household => ({
  consumerId,
  latitude: 52.37,
  longitude: 4.89,
  radiusKm: 25,
  items,
});
const item = (over: Partial<Household['items'][number]>): Household['items'][number] => ({
  crop: 'tomato',
  quantityPerWeek: 1,
  unit: 'kg',
  currency: 'EUR',
  organicOnly: false,
  localOnly: false,
  seasons: ['spring', 'summer', 'autumn', 'winter'],
  ...over,
});

describe('demand aggregation', () => {
  // Two weeks whose Mondays are in autumn (30 November) and winter (7 December).
  const weeks = weekStarts(d('2026-11-30'), 2);

  it('sums households per crop and week in kg, honouring units and seasons', () => {
    const out = aggregateDemand(
      [
        household('a', [item({ quantityPerWeek: 2 }), item({ crop: 'basil', quantityPerWeek: 4, unit: 'bunch' })]),
        household('b', [item({ quantityPerWeek: 10, unit: 'piece', seasons: ['autumn'] })]),
      ],
      [],
      weeks,
    );
    expect(out.map((c) => c.crop)).toEqual(['tomato', 'basil']);
    expect(out[0]).toMatchObject({ consumers: 2, demandKg: 5.2, gapKg: 5.2 });
    // 10 pieces of 0.12 kg in autumn only: the winter week lacks them.
    expect(out[0]?.weeks.map((w) => w.demandKg)).toEqual([3.2, 2]);
    expect(out[1]).toMatchObject({ crop: 'basil', demandKg: 0.4 });
  });

  it('nets supply spread over its window, never below zero', () => {
    const out = aggregateDemand(
      [household('a', [item({ quantityPerWeek: 3 })])],
      [{ crop: 'tomato', quantityKg: 14, from: d('2026-11-30'), to: d('2026-12-13'), latitude: 52, longitude: 5 }],
      weeks,
    );
    expect(out[0]?.weeks).toEqual([
      { weekStart: '2026-11-30', demandKg: 3, supplyKg: 7, gapKg: 0 },
      { weekStart: '2026-12-07', demandKg: 3, supplyKg: 7, gapKg: 0 },
    ]);
  });
});
