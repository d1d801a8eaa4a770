import { describe, expect, it } from 'vitest';
import { parseDate } from './calendar.js';
import type { Household } from './demand.js';
import { recommendCrops } from './recommend.js';

const household = (items: Partial<Household['items'][number]>[], consumerId = 'c'): Household => ({
  consumerId,
  latitude: 52.37,
  longitude: 4.89,
  radiusKm: 25,
  items: items.map((i) => ({
    crop: 'lettuce',
    quantityPerWeek: 1,
    unit: 'kg',
    currency: 'EUR',
    organicOnly: false,
    localOnly: false,
    seasons: ['spring', 'summer', 'autumn', 'winter'],
    ...i,
  })),
});

describe('crop recommendations', () => {
  const grower = {
    latitude: 52.1,
    longitude: 5.1,
    areaM2: 10,
    method: 'open-field' as const,
    startDate: parseDate('2026-04-06') as Date,
  };

  it('ranks by sellable revenue: the smaller of unmet demand and yield, at the price households accept', () => {
    // Five households state a price: enough for their median to be shown.
    const homes = [
      household([
        { crop: 'lettuce', quantityPerWeek: 1, maxPrice: 300 },
        { crop: 'radish', quantityPerWeek: 1 },
      ]),
      ...['c2', 'c3', 'c4', 'c5'].map((id) => household([{ crop: 'lettuce', quantityPerWeek: 1, maxPrice: 300 }], id)),
    ];
    const [first, second] = recommendCrops(grower, homes, []);
    // Lettuce: 5 × 1 kg × 4 weeks = 20 kg wanted, 25 kg expected; 20 kg at 3 EUR = 60 EUR.
    expect(first).toMatchObject({ crop: 'lettuce', suitable: true, unmetDemandKg: 20, expectedYieldKg: 25, score: 60 });
    expect(first?.expectedRevenue).toEqual({ amount: 6000, currency: 'EUR' });
    expect(first?.harvestDate).toBe('2026-05-26');
    // Radish: 4 kg at the reference 3 EUR/kg.
    expect(second).toMatchObject({ crop: 'radish', score: 12 });
  });

  it('prices at the reference price when fewer than 5 households state one, and says when a crop is withheld', () => {
    const homes = [household([{ crop: 'lettuce', quantityPerWeek: 5, maxPrice: 900 }])];
    const lettuce = recommendCrops(grower, homes, [], new Set(['radish'])).find((a) => a.crop === 'lettuce');
    // 20 kg at the table's 2.50 EUR/kg, not the one household's 9 EUR.
    expect(lettuce?.expectedRevenue).toEqual({ amount: 5000, currency: 'EUR' });
    expect(lettuce?.reasons.join(' ')).not.toContain('9 EUR');
    const radish = recommendCrops(grower, homes, [], new Set(['radish'])).find((a) => a.crop === 'radish');
    expect(radish?.reasons).toContain('fewer than 5 households nearby ask for it: not counted');
    expect(radish?.reasonCodes).toContainEqual({ code: 'withheld', params: { minHouseholds: 5 } });
    expect(lettuce?.reasonCodes.at(-1)).toEqual({
      code: 'reference-price',
      params: { pricePerKg: 2.5, currency: 'EUR' },
    });
    // Each English sentence is its code's, in the same order.
    expect(lettuce?.reasons).toHaveLength(lettuce?.reasonCodes.length ?? -1);
  });

  it('nets committed supply and scores unsuitable crops 0 with the reason', () => {
    const homes = [
      household([
        { crop: 'lettuce', quantityPerWeek: 5 },
        { crop: 'garlic', quantityPerWeek: 5 },
      ]),
    ];
    const supply = [
      {
        crop: 'lettuce',
        quantityKg: 280,
        from: parseDate('2026-05-01') as Date,
        to: parseDate('2026-07-09') as Date,
        latitude: 52,
        longitude: 5,
      },
    ];
    const advice = recommendCrops(grower, homes, supply);
    const lettuce = advice.find((a) => a.crop === 'lettuce');
    expect(lettuce?.unmetDemandKg).toBe(0);
    const garlic = advice.find((a) => a.crop === 'garlic');
    expect(garlic).toMatchObject({ suitable: false, score: 0 });
    expect(garlic?.reasons[0]).toBe('month 4 is outside its open-field sowing months');
    expect(garlic?.reasonCodes[0]).toEqual({ code: 'not-sowable', params: { month: 4, method: 'open-field' } });
    const micro = recommendCrops({ ...grower, method: 'open-field' }, homes, []).find((a) => a.crop === 'microgreens');
    expect(micro?.reasons[0]).toBe('microgreens is not grown by open-field');
    expect(micro?.reasonCodes[0]).toEqual({ code: 'not-grown', params: { crop: 'microgreens', method: 'open-field' } });
  });

  it('puts what can be sown now first, even when no demand nearby separates the crops', () => {
    // Open field in November: nothing nearby asks, every score is 0. Microgreens' 12 days used to win the tie.
    const november = { ...grower, startDate: parseDate('2026-11-30') as Date };
    for (const method of ['open-field', 'greenhouse', 'vertical'] as const) {
      const advice = recommendCrops({ ...november, method }, [], []);
      const firstUnsuitable = advice.findIndex((a) => !a.suitable);
      const lastSuitable = advice.map((a) => a.suitable).lastIndexOf(true);
      if (firstUnsuitable >= 0) expect(lastSuitable).toBeLessThan(firstUnsuitable);
      if (lastSuitable >= 0) expect(advice[0]?.suitable).toBe(true);
    }
    const open = recommendCrops({ ...november, method: 'open-field' }, [], []);
    expect(open[0]?.crop).not.toBe('microgreens');
  });
});
