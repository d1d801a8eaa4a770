import { describe, expect, it } from 'vitest';
import { benjaminiHochberg, pearsonInterval, pearsonPValue } from './correlation.js';

// Reference figures from scipy 1.17.1: scipy.stats.pearsonr(x, y) with .pvalue and .confidence_interval(0.95)
// (Fisher z, as R's cor.test), and scipy.stats.false_discovery_control(p) (Benjamini–Hochberg).
describe('correlation statistics against scipy', () => {
  it.each([
    // r, n, p, ci low, ci high
    [0.946803766085156, 12, 3.0672947053473504e-6, 0.816643575267021, 0.9853134395767621],
    [0.012262040102727453, 12, 0.9698299344780483, -0.5656199603193793, 0.5820675287979202],
    [0.10068652982563353, 12, 0.7555356265716268, -0.5022363966305576, 0.637737045886592],
    [0.9996910032123583, 10, 3.9868773129948064e-14, 0.9986411429230614, 0.99992976429755],
  ])('r = %d from %d pairs', (r, n, p, low, high) => {
    expect(pearsonPValue(r, n)).toBeCloseTo(p, p < 1e-6 ? 12 : 9);
    const ci = pearsonInterval(r, n);
    expect(ci.low).toBeCloseTo(low, 9);
    expect(ci.high).toBeCloseTo(high, 9);
  });

  it('gives p = 0.05 at the textbook critical t (2.306 on 8 degrees of freedom)', () => {
    // t = r·√(8/(1−r²)) = 2.306004 ⇔ r = t/√(t² + 8).
    const t = 2.306004;
    expect(pearsonPValue(t / Math.sqrt(t * t + 8), 10)).toBeCloseTo(0.05, 6);
  });

  it('adjusts p-values like false_discovery_control', () => {
    expect(benjaminiHochberg([0.01, 0.04, 0.03, 0.005, 0.5])).toEqual(
      [0.025, 0.05, 0.05, 0.025, 0.5].map((v) => expect.closeTo(v, 12)),
    );
    expect(benjaminiHochberg([])).toEqual([]);
  });
});
