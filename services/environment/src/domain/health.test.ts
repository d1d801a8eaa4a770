import { describe, expect, it } from 'vitest';
import { healthScore, parameterScore } from './health.js';
import { FALLBACK_RANGES, rangesFor, SPECIES_RANGES, speciesKey } from './ranges.js';

describe('parameterScore', () => {
  it('is 100 inside the range and falls linearly to 0 at the tolerance outside it', () => {
    const range = { min: 6.2, max: 6.8 };
    expect(parameterScore(6.5, range, 1)).toBe(100);
    expect(parameterScore(6.2, range, 1)).toBe(100);
    expect(parameterScore(7.3, range, 1)).toBeCloseTo(50, 10);
    expect(parameterScore(5.45, range, 1)).toBeCloseTo(25, 10);
    expect(parameterScore(9, range, 1)).toBe(0);
  });
});

describe('healthScore', () => {
  it('scores a tomato against its own ranges (worked out by hand)', () => {
    // soil.ph 7.3: 0.5 above 6.8 with tolerance 1 → 50. climate: 24 °C inside 21–27 → 100; 50 % humidity, 10 below
    // 60 with tolerance 25 → 60; climate = 80. lighting: DLI 25 and 14 h inside → 100.
    // Score = (0.2·50 + 0.3·80 + 0.25·100) / (0.2 + 0.3 + 0.25) = 59 / 0.75 = 78.666… → 78.67.
    const result = healthScore('plt_a', 'solanum lycopersicum', {
      soil: { ph: 7.3 },
      climate: { temperatureC: 24, humidityPercent: 50 },
      lighting: { dli: 25, hoursPerDay: 14 },
      growth: { heightCm: 40 },
    });
    expect(result.ranges).toBe('species');
    expect(result.score).toBe(78.67);
    const byCategory = Object.fromEntries(result.components.map((c) => [c.category, c.score]));
    expect(byCategory).toEqual({ soil: 50, climate: 80, lighting: 100 });
    expect(result.components.find((c) => c.category === 'climate')!.parameters).toEqual([
      { parameter: 'climate.temperatureC', value: 24, target: { min: 21, max: 27, unit: '°C' }, score: 100 },
      { parameter: 'climate.humidityPercent', value: 50, target: { min: 60, max: 80, unit: '%' }, score: 60 },
    ]);
  });

  it('uses the fallback ranges for a species not in the table, and says so', () => {
    // Fallback soil pH 6–7: pH 5.5 is 0.5 below → 50; water pH 8 is 1 above 7 → 0. (0.2·50 + 0.15·0) / 0.35 = 28.57.
    const result = healthScore('plt_b', 'musa acuminata', { soil: { ph: 5.5 }, watering: { ph: 8 } });
    expect(result.ranges).toBe('fallback');
    expect(result.score).toBe(28.57);
  });

  it('is null when nothing scored was measured', () => {
    expect(healthScore('plt_c', null, { container: { type: 'pot' } })).toMatchObject({ score: null, components: [] });
  });
});

describe('ranges', () => {
  it('keeps every range ordered and cites a source for each species', () => {
    for (const species of [...Object.values(SPECIES_RANGES), FALLBACK_RANGES]) {
      expect(species.source.length).toBeGreaterThan(10);
      for (const range of Object.values(species.ranges)) expect(range.min).toBeLessThan(range.max);
    }
  });

  it('looks species up by scientific name, whatever the case, spacing or hybrid sign', () => {
    expect(speciesKey('  Solanum   Lycopersicum ')).toBe('solanum lycopersicum');
    expect(rangesFor(speciesKey('Fragaria x ananassa')).kind).toBe('species');
    expect(rangesFor(null).kind).toBe('fallback');
  });
});
