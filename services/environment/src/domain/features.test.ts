import { describe, expect, it } from 'vitest';
import { FEATURE_COUNT, featureVector, SIMILARITY_CATEGORIES, SIMILARITY_WEIGHTS, similarity } from './features.js';
import { SimilarityIndex } from './similarity-index.js';

// Worked out by hand. soil: |7 − 5.6| / 14 = 0.1 → 0.9. climate: temperature span −10–45 (55), |20 − 31| / 55 = 0.2;
// humidity |50 − 80| / 100 = 0.3; mean 0.25 → 0.75. location: indoor = indoor → 1. Lighting only on B: ignored.
// Overall = 100 · (0.15·0.9 + 0.2·0.75 + 0.1·1) / (0.15 + 0.2 + 0.1) = 100 · 0.385 / 0.45 = 85.555…
const A = {
  soil: { ph: 7 },
  climate: { temperatureC: 20, humidityPercent: 50 },
  location: { setting: 'indoor' as const },
};
const B = {
  soil: { ph: 5.6 },
  climate: { temperatureC: 31, humidityPercent: 80 },
  location: { setting: 'indoor' as const },
  lighting: { hoursPerDay: 12 },
};

describe('similarity', () => {
  it('weights per-category similarities over the categories both plants have', () => {
    const result = similarity(featureVector(A), featureVector(B));
    expect(result.similarity).toBeCloseTo(85.5556, 4);
    const by = Object.fromEntries(SIMILARITY_CATEGORIES.map((c, i) => [c, result.categories[i]]));
    expect(by.soil).toBeCloseTo(0.9, 6);
    expect(by.climate).toBeCloseTo(0.75, 6);
    expect(by.location).toBe(1);
    expect(by.lighting).toBeNull();
  });

  it('is 100 for identical environments and null when no category is shared', () => {
    expect(similarity(featureVector(B), featureVector(B)).similarity).toBe(100);
    expect(
      similarity(featureVector({ soil: { ph: 6 } }), featureVector({ climate: { temperatureC: 20 } })).similarity,
    ).toBeNull();
  });

  it('counts a categorical mismatch as the whole distance', () => {
    // soil: ph equal (0), drainage good vs poor (1): mean 0.5 → 50.
    const r = similarity(
      featureVector({ soil: { ph: 6, drainage: 'good' } }),
      featureVector({ soil: { ph: 6, drainage: 'poor' } }),
    );
    expect(r.similarity).toBeCloseTo(50, 10);
  });

  it('has weights that sum to 1', () => {
    expect(Object.values(SIMILARITY_WEIGHTS).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });
});

describe('SimilarityIndex', () => {
  it('ranks the other plants by the same score, skips plants sharing nothing, and breaks ties by id', () => {
    const index = new SimilarityIndex();
    index.upsert('plt_a', null, featureVector(A));
    index.upsert('plt_b', 'x', featureVector(B));
    index.upsert('plt_c', null, featureVector(A));
    index.upsert('plt_d', null, featureVector({ lighting: { hoursPerDay: 3 } }));
    index.upsert('plt_e', null, featureVector(A));
    const { items, compared } = index.nearest('plt_a', 2);
    expect(compared).toBe(3);
    expect(items.map((i) => [i.plantId, i.similarity])).toEqual([
      ['plt_c', 100],
      ['plt_e', 100],
    ]);
    const all = index.nearest('plt_a', 10).items;
    expect(all.map((i) => i.plantId)).toEqual(['plt_c', 'plt_e', 'plt_b']);
    expect(all[2]).toMatchObject({
      similarity: 85.56,
      species: 'x',
      sharedCategories: ['climate', 'soil', 'location'],
    });
  });

  it('replaces a plant’s vector on upsert and grows past its first capacity', () => {
    const index = new SimilarityIndex();
    for (let i = 0; i < 2000; i++) index.upsert(`plt_${i}`, null, featureVector({ soil: { ph: 7 } }));
    index.upsert('plt_0', null, featureVector({ soil: { ph: 0 } }));
    expect(index.size).toBe(2000);
    expect(index.vectorOf('plt_0')![0]).toBe(0);
    expect(index.vectorOf('plt_1999')).toHaveLength(FEATURE_COUNT);
    expect(index.nearest('plt_1', 1).items[0]).toMatchObject({ plantId: 'plt_10', similarity: 100 });
  });
});
