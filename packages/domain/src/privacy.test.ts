import { describe, expect, it } from 'vitest';
import { haversineKm, KM_PER_DEGREE } from './geo.js';
import {
  applyPrivacyLevel,
  CITY_CELL_KM,
  COUNTRY_CELL_KM,
  disclosedDistanceKm,
  FUZZY_MAX_KM,
  FUZZY_MIN_KM,
  snapToGrid,
} from './privacy.js';

const amsterdam = { latitude: 52.3676, longitude: 4.9041, city: 'Amsterdam', country: 'NL' };

function randomPoints(n: number, maxAbsLat = 90) {
  return Array.from({ length: n }, () => ({
    latitude: -maxAbsLat + 2 * maxAbsLat * Math.random(),
    longitude: -180 + 360 * Math.random(),
    city: 'Somewhere',
    country: 'XX',
  }));
}

describe('applyPrivacyLevel', () => {
  it('exact: returns the location unchanged', () => {
    expect(applyPrivacyLevel(amsterdam, 'exact', Math.random)).toEqual(amsterdam);
  });

  it('fuzzy: moves every point by 1 to 5 km, keeping city and country', () => {
    let nearest = Number.POSITIVE_INFINITY;
    let farthest = 0;
    const names = new Set<string>();
    for (const p of randomPoints(5000)) {
      const out = applyPrivacyLevel(p, 'fuzzy', Math.random)!;
      const km = haversineKm(p, out);
      nearest = Math.min(nearest, km);
      farthest = Math.max(farthest, km);
      names.add(`${out.city}/${out.country}`);
    }
    expect([...names]).toEqual(['Somewhere/XX']);
    expect(nearest).toBeGreaterThanOrEqual(FUZZY_MIN_KM - 1e-9);
    expect(farthest).toBeLessThanOrEqual(FUZZY_MAX_KM + 1e-9);
    // The whole range is used, not one fixed offset.
    expect(nearest).toBeLessThan(1.1);
    expect(farthest).toBeGreaterThan(4.9);
  });

  it('fuzzy: the random source sets distance and direction (0 → 1 km due north)', () => {
    const out = applyPrivacyLevel(amsterdam, 'fuzzy', () => 0)!;
    expect(haversineKm(amsterdam, out)).toBeCloseTo(1, 9);
    expect(out.latitude).toBeGreaterThan(amsterdam.latitude);
    expect(out.longitude).toBeCloseTo(amsterdam.longitude, 9);
  });

  it('city: snaps to the centre of a ~10 km cell, at most its half-diagonal (7.1 km) away', () => {
    let farthest = 0;
    const names = new Set<string>();
    for (const p of randomPoints(5000)) {
      const out = applyPrivacyLevel(p, 'city', Math.random)!;
      farthest = Math.max(farthest, haversineKm(p, out));
      names.add(`${out.city}/${out.country}`);
    }
    expect(farthest).toBeLessThanOrEqual((CITY_CELL_KM / 2) * Math.SQRT2 + 0.05);
    expect(farthest).toBeGreaterThan(6);
    expect([...names]).toEqual(['Somewhere/XX']);
  });

  it('city: every point of a cell gives the same centre, so the exact point cannot be recovered', () => {
    const a = applyPrivacyLevel({ latitude: 52.3676, longitude: 4.9041 }, 'city', Math.random);
    const b = applyPrivacyLevel({ latitude: 52.37, longitude: 4.91 }, 'city', Math.random);
    expect(a).toEqual(b);
    // Snapping a centre again leaves it where it is.
    expect(snapToGrid(a!.latitude, a!.longitude, CITY_CELL_KM)).toEqual({
      latitude: a!.latitude,
      longitude: a!.longitude,
    });
  });

  it('city: neighbouring cells are about 10 km apart', () => {
    const here = snapToGrid(52.3676, 4.9041, CITY_CELL_KM);
    const north = snapToGrid(here.latitude + 0.09, here.longitude, CITY_CELL_KM);
    const east = snapToGrid(here.latitude, here.longitude + 0.15, CITY_CELL_KM);
    expect((north.latitude - here.latitude) * KM_PER_DEGREE).toBeCloseTo(10, 1);
    expect(east.latitude).toBe(here.latitude);
    expect(haversineKm(here, east)).toBeCloseTo(10, 1);
  });

  it('country: snaps to a ~100 km cell, at most 71 km away, and drops the city', () => {
    let farthest = 0;
    const keys = new Set<string>();
    for (const p of randomPoints(5000)) {
      const out = applyPrivacyLevel(p, 'country', Math.random)!;
      farthest = Math.max(farthest, haversineKm(p, out));
      keys.add(Object.keys(out).sort().join(','));
    }
    // Near the poles too, where cells are fewest per row: the rows nearest them, and the poles themselves.
    for (const latitude of [-90, -89.9, -89.5, -88, -85, 85, 88, 89.5, 89.9, 90]) {
      for (let lon = -180; lon < 180; lon += 7.3) {
        const p = { latitude, longitude: lon, country: 'XX' };
        farthest = Math.max(farthest, haversineKm(p, applyPrivacyLevel(p, 'country', Math.random)!));
      }
    }
    expect(farthest).toBeLessThanOrEqual((COUNTRY_CELL_KM / 2) * Math.SQRT2 + 0.5);
    expect(farthest).toBeGreaterThan(60);
    expect([...keys]).toEqual(['country,latitude,longitude']);
    const a = applyPrivacyLevel(amsterdam, 'country', Math.random)!;
    const b = applyPrivacyLevel({ ...amsterdam, latitude: 52.5, longitude: 4.6 }, 'country', Math.random)!;
    expect(a).toEqual(b);
  });

  it('hidden: discloses nothing', () => {
    expect(applyPrivacyLevel(amsterdam, 'hidden', Math.random)).toBeNull();
  });

  it('never needs randomness except for fuzzy', () => {
    const noRandom = () => {
      throw new Error('random used');
    };
    for (const level of ['exact', 'city', 'country', 'hidden'] as const) {
      expect(() => applyPrivacyLevel(amsterdam, level, noRandom)).not.toThrow();
    }
  });
});

describe('disclosedDistanceKm', () => {
  it('keeps an exact distance, rounds to the step of a fuzzy, city or country end, and hides a hidden one', () => {
    expect(disclosedDistanceKm(12.345, 'exact')).toBe(12.345);
    expect(disclosedDistanceKm(12.345, 'fuzzy')).toBe(10);
    expect(disclosedDistanceKm(13, 'fuzzy')).toBe(15);
    expect(disclosedDistanceKm(12.345, 'city')).toBe(10);
    expect(disclosedDistanceKm(151, 'country')).toBe(200);
    expect(disclosedDistanceKm(12.345, 'hidden')).toBeNull();
  });
});
