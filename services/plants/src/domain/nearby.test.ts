import { NEARBY_EXACT_TOTAL_MAX } from '@rootline/contracts/plants';
import { haversineKm } from '@rootline/domain';
import { describe, expect, it } from 'vitest';
import { innerRadiusKm, nearbyArea, nearbyTotal } from './nearby.js';

describe('nearbyTotal', () => {
  const area = { radiusKm: 50, innerKm: innerRadiusKm(50) };

  it('is the count, exact, up to the cap', () => {
    expect(nearbyTotal(area, 0, 0)).toEqual({ total: 0, totalIsEstimate: false });
    expect(nearbyTotal(area, NEARBY_EXACT_TOTAL_MAX, 40)).toEqual({
      total: NEARBY_EXACT_TOTAL_MAX,
      totalIsEstimate: false,
    });
  });

  it('past the cap scales the inner circle by the areas, never below the cap + 1', () => {
    // A third of the radius is about a ninth of the area.
    const { total, totalIsEstimate } = nearbyTotal(area, NEARBY_EXACT_TOTAL_MAX + 1, 150);
    expect(totalIsEstimate).toBe(true);
    expect(total).toBeGreaterThan(1340);
    expect(total).toBeLessThan(1360);
    expect(nearbyTotal(area, NEARBY_EXACT_TOTAL_MAX + 1, 0)).toEqual({
      total: NEARBY_EXACT_TOTAL_MAX + 1,
      totalIsEstimate: true,
    });
  });
});

describe('nearbyArea', () => {
  it('holds the inner circle inside the circle, each in its box', () => {
    const center = { latitude: 52.09, longitude: 5.12 };
    const area = nearbyArea(center, 30);
    expect(area.innerKm).toBeCloseTo(10, 12);
    const edge = { latitude: area.innerBox.maxLat, longitude: center.longitude };
    expect(haversineKm(center, edge)).toBeCloseTo(10, 6);
    expect(area.innerBox.minLat).toBeGreaterThan(area.box.minLat);
    expect(area.innerBox.lonRanges[0]![0]).toBeGreaterThan(area.box.lonRanges[0]![0]);
  });
});
