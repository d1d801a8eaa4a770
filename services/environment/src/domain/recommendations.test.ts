import { describe, expect, it } from 'vitest';
import { recommend } from './recommendations.js';

describe('recommend', () => {
  it('advises on values outside the range by priority, and on unmeasured ones last', () => {
    // Blueberry soil pH 4.5–5.5: pH 7 is 1.5 above → score 0 → high. Temperature 13 °C is 2 below 15 → 75 → medium.
    const list = recommend('vaccinium corymbosum', {
      soil: { ph: 7 },
      climate: { temperatureC: 13, humidityPercent: 60 },
    });
    expect(list[0]).toMatchObject({
      priority: 'high',
      category: 'soil',
      parameter: 'soil.ph',
      measured: 7,
      target: { min: 4.5, max: 5.5, unit: 'pH' },
    });
    expect(list[0]!.reason).toContain('above the optimal range 4.5–5.5 pH for highbush blueberry');
    expect(list[0]!.advice).toMatch(/Lower the soil pH/);
    expect(list[0]).toMatchObject({
      code: 'soil.ph.too-high',
      params: { parameter: 'soil.ph', kind: 'too-high', measured: 7, min: 4.5, max: 5.5, unit: 'pH' },
    });
    expect(list[1]).toMatchObject({
      priority: 'medium',
      parameter: 'climate.temperatureC',
      measured: 13,
      code: 'climate.temperatureC.too-low',
      params: { kind: 'too-low', measured: 13, unit: '°C' },
    });
    const rest = list.slice(2);
    expect(rest.every((r) => r.priority === 'low' && r.measured === null)).toBe(true);
    expect(rest.every((r) => r.code === `${r.parameter}.unmeasured` && r.params.measured === null)).toBe(true);
    expect(rest.map((r) => r.parameter).sort()).toEqual([
      'lighting.dli',
      'lighting.hoursPerDay',
      'nutrients.ecMsCm',
      'watering.ph',
    ]);
  });
});
