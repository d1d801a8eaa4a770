import { describe, expect, it } from 'vitest';
import { FEATURE_COUNT, FEATURE_IS_CATEGORICAL, similarity } from './features.js';
import { SimilarityIndex } from './similarity-index.js';

/** mulberry32: the same vectors on every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Coarse values (tenths, three categories) and many missing ones, so exact ties and partial overlaps are common.
function vectorOf(random: () => number): number[] {
  const present = random();
  return Array.from({ length: FEATURE_COUNT }, (_, f) => {
    if (random() > present) return Number.NaN;
    return FEATURE_IS_CATEGORICAL[f] ? Math.floor(random() * 3) : Math.fround(Math.round(random() * 10) / 10);
  });
}

function bruteForce(ids: string[], vectors: number[][], query: number, limit: number) {
  const all: { plantId: string; score: number }[] = [];
  for (let i = 0; i < ids.length; i++) {
    const s = i === query ? null : similarity(vectors[query]!, vectors[i]!).similarity;
    if (s !== null) all.push({ plantId: ids[i]!, score: s });
  }
  all.sort((a, b) => b.score - a.score || (a.plantId < b.plantId ? -1 : 1));
  return { top: all.slice(0, limit).map((x) => x.plantId), compared: all.length };
}

describe('SimilarityIndex filter', () => {
  const random = seeded(11);
  const ids = Array.from({ length: 6000 }, (_, i) => `plt_${String((i * 7919) % 6000).padStart(6, '0')}`);
  const vectors = ids.map(() => vectorOf(random));
  const index = new SimilarityIndex();
  for (const [i, id] of ids.entries()) index.upsert(id, null, vectors[i]!);

  it('answers exactly the brute-force ranking, ties by id, while scoring fewer plants', () => {
    let scored = 0;
    let compared = 0;
    for (let q = 0; q < 120; q++) {
      const limit = [1, 10, 100][q % 3]!;
      const expected = bruteForce(ids, vectors, q, limit);
      const got = index.nearest(ids[q]!, limit);
      expect(got.items.map((x) => x.plantId)).toEqual(expected.top);
      expect(got.compared).toBe(expected.compared);
      scored += got.scored;
      compared += got.compared;
    }
    expect(scored).toBeLessThan(compared / 2);
  });

  it('sees an upsert at once and counts it in its version', () => {
    const version = index.version;
    // The smallest id, so it ranks first among equal scores.
    const twin = 'plt_000000_twin';
    index.upsert(twin, 'ocimum basilicum', vectors[5]!);
    expect(index.version).toBe(version + 1);
    expect(index.nearest(ids[5]!, 100).items.map((x) => x.plantId)).toContain(twin);
    index.upsert(twin, 'ocimum basilicum', vectors[6]!);
    const withTwin = bruteForce([...ids, twin], [...vectors, vectors[6]!], 5, 100).top;
    expect(index.nearest(ids[5]!, 100).items.map((x) => x.plantId)).toEqual(withTwin);
    const twinFirst = bruteForce([...ids, twin], [...vectors, vectors[6]!], 6, 100).top;

    expect(index.nearest(ids[6]!, 100).items.map((x) => x.plantId)).toEqual(twinFirst);
  });

  it('answers nothing for a plant it does not hold', () => {
    expect(index.nearest('plt_unknown', 10)).toEqual({ items: [], compared: 0, scored: 0 });
  });
});
