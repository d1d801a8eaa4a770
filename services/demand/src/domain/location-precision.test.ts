import { haversineKm } from '@rootline/domain';
import { describe, expect, it } from 'vitest';
import { cellDistanceKm, gridCell, LOCATION_PRECISION_KM, snapRadiusKm } from './location-precision.js';

describe('the grid of the published precision', () => {
  it('gives every point of a cell the same centre, within a cell of the point', () => {
    for (const p of [
      { latitude: 48.2082, longitude: 16.3738 },
      { latitude: -33.87, longitude: 151.21 },
      { latitude: 64.1, longitude: -21.9 },
      { latitude: 0.001, longitude: -179.999 },
    ]) {
      const c = gridCell(p);
      expect(haversineKm(p, c)).toBeLessThanOrEqual(LOCATION_PRECISION_KM);
      expect(gridCell(c).key).toBe(c.key);
      expect(gridCell({ latitude: c.latitude + 0.01, longitude: c.longitude - 0.01 }).key).toBe(c.key);
    }
  });

  it('measures distances between cells only', () => {
    const supply = { latitude: 48.3, longitude: 16.5 };
    const home = { latitude: 48.2082, longitude: 16.3738 };
    const c = gridCell(home);
    const elsewhereInCell = { latitude: c.latitude - 0.015, longitude: c.longitude + 0.02 };
    expect(gridCell(elsewhereInCell).key).toBe(c.key);
    expect(cellDistanceKm(supply, home)).toBe(cellDistanceKm(supply, elsewhereInCell));
  });

  it('rounds radii up to whole steps of 5 km', () => {
    expect(snapRadiusKm(0.02)).toBe(5);
    expect(snapRadiusKm(5)).toBe(5);
    expect(snapRadiusKm(12)).toBe(15);
  });
});
