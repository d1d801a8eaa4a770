import { describe, expect, it } from 'vitest';
import { analysisMeasures, MEASURES } from './measures.js';

describe('analysisMeasures', () => {
  it('lists the analysed values in MEASURES order, null where not recorded', () => {
    const values = analysisMeasures({ soil: { ph: 6.5 }, growth: { heightCm: 40 }, nutrients: { ecMsCm: 1.2 } });
    expect(values).toHaveLength(MEASURES.length);
    expect(Object.fromEntries(MEASURES.map((m, i) => [m, values[i]]))).toMatchObject({
      'soil.ph': 6.5,
      'nutrients.ecMsCm': 1.2,
      'growth.heightCm': 40,
      'lighting.dli': null,
    });
  });
});
