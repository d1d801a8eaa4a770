import { describe, expect, it } from 'vitest';
import { detectPatterns, efficiencyRating, efficiencyScore, type ScannedEvent } from './patterns.js';

const base: ScannedEvent = {
  id: 'tev_a',
  kind: 'distribution',
  handlerId: 'usr_a',
  plantId: null,
  transportMode: 'cargo-bike',
  distanceKm: 5,
  massKg: 20,
  kgCo2e: 0,
  from: null,
  to: null,
  sensorReadings: [],
};
const kinds = (e: Partial<ScannedEvent>) => detectPatterns({ ...base, ...e }).map((p) => p.kind);

describe('transport patterns', () => {
  it('finds nothing in a clean cargo-bike delivery', () => {
    expect(kinds({})).toEqual([]);
  });

  it('flags over 5 × a diesel HGV per tonne-km, and carbon with no mass', () => {
    expect(kinds({ transportMode: 'air', kgCo2e: 0.13, massKg: 20 })).toEqual(['high-carbon']);
    expect(kinds({ transportMode: 'hgv-refrigerated', kgCo2e: 0.012, massKg: 20 })).toEqual([]);
    expect(kinds({ transportMode: 'hgv-diesel', kgCo2e: 5, massKg: 0, distanceKm: 0 })).toEqual(['high-carbon']);
  });

  it('flags a reading above 8 °C as a cold-chain break', () => {
    const p = detectPatterns({
      ...base,
      sensorReadings: [
        { at: 'x', temperatureC: 4 },
        { at: 'y', temperatureC: 11 },
      ],
    });
    expect(p).toMatchObject([{ kind: 'cold-chain-break', reason: '1 of 2 readings above 8 °C (highest 11 °C)' }]);
  });

  it('flags a detour beyond 1.5 × the straight line + 5 km, and an empty van run', () => {
    const from = { latitude: 52.37, longitude: 4.9 };
    const to = { latitude: 52.09, longitude: 5.12 };
    expect(kinds({ from, to, distanceKm: 80 })).toEqual(['long-detour']);
    expect(kinds({ from, to, distanceKm: 40 })).toEqual([]);
    expect(kinds({ transportMode: 'diesel-van', massKg: 0, distanceKm: 3, kgCo2e: 0.75 })).toEqual(['empty-run']);
  });

  it('rates efficiency against the baseline', () => {
    expect(efficiencyScore(0, 10)).toBe(100);
    expect(efficiencyScore(30, 10)).toBe(0);
    expect(efficiencyScore(5, 10)).toBe(50);
    expect(efficiencyScore(1, 0)).toBeNull();
    expect([90, 70, 50, 30, 10, null].map(efficiencyRating)).toEqual(['A', 'B', 'C', 'D', 'E', null]);
  });
});
