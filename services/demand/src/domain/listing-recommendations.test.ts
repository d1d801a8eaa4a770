import { describe, expect, it } from 'vitest';
import { type CandidateListing, scoreListing } from './listing-recommendations.js';

const listing = (over: Partial<CandidateListing> = {}): CandidateListing => ({
  id: 'lst_1',
  category: 'produce',
  crop: 'tomato',
  price: 400,
  currency: 'EUR',
  searchText: 'heirloom tomatoes 1 kg',
  latitude: 52.37,
  longitude: 4.9,
  ...over,
});

describe('listing recommendation score', () => {
  it('adds wishlist, preference and nearness terms with their reasons', () => {
    const s = scoreListing(listing(), {
      wishlist: [{ q: 'Heirloom', category: 'produce', crop: null, maxPrice: 500 }],
      preferences: [{ crop: 'tomato', maxPrice: 450, currency: 'EUR' }],
      from: { latitude: 52.37, longitude: 4.9 },
    });
    expect(s.score).toBe(6);
    expect(s.reasons).toEqual(['matches your wishlist', 'tomato is in your demand preferences', '0.0 km away']);
    expect(s.reasonCodes).toEqual([
      { code: 'wishlist', params: {} },
      { code: 'preference', params: { crop: 'tomato' } },
      { code: 'distance', params: { km: 0 } },
    ]);
  });

  it('does not count a wishlist item whose price or words do not fit', () => {
    const s = scoreListing(listing(), {
      wishlist: [
        { q: null, category: null, crop: null, maxPrice: 300 },
        { q: 'basil', category: null, crop: null, maxPrice: null },
      ],
      preferences: [{ crop: 'tomato', maxPrice: 300, currency: 'EUR' }],
    });
    expect(s).toEqual({ score: 0, reasons: [], reasonCodes: [], distanceKm: null });
  });

  it('halves the nearness term at 10 km', () => {
    const s = scoreListing(listing({ latitude: 52.37 + 10 / 111.195 }), {
      wishlist: [],
      preferences: [{ crop: 'tomato', currency: 'EUR' }],
      from: { latitude: 52.37, longitude: 4.9 },
    });
    expect(s.score).toBeCloseTo(2.5, 2);
  });
});
