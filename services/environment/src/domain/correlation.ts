import quantile from '@stdlib/stats-base-dists-normal-quantile';
import tCdf from '@stdlib/stats-base-dists-t-cdf';
import padjust from '@stdlib/stats-padjust';

/** The 0.975 quantile of the standard normal distribution: the half-width of a 95 % interval in z units. */
const Z_975 = quantile(0.975, 0, 1);

/**
 * Two-sided p-value of a Pearson r from n pairs: t = r·√((n−2)/(1−r²)) on n − 2 degrees of freedom (the test
 * R's cor.test and scipy's pearsonr use). n must be at least 3.
 */
export function pearsonPValue(r: number, n: number): number {
  if (Math.abs(r) >= 1) return 0;
  const df = n - 2;
  const t = Math.abs(r) * Math.sqrt(df / (1 - r * r));
  return Math.min(1, 2 * (1 - tCdf(t, df)));
}

/**
 * 95 % confidence interval of a Pearson r from n pairs by Fisher's z transformation: tanh(atanh(r) ± z/√(n−3)),
 * as R's cor.test reports it. n must be at least 4.
 */
export function pearsonInterval(r: number, n: number): { low: number; high: number } {
  const clamped = Math.max(-0.999_999_999, Math.min(0.999_999_999, r));
  const z = Math.atanh(clamped);
  const half = Z_975 / Math.sqrt(n - 3);
  return { low: Math.tanh(z - half), high: Math.tanh(z + half) };
}

/** Benjamini–Hochberg adjusted p-values (false discovery rate), in the order given. */
export function benjaminiHochberg(pValues: number[]): number[] {
  return pValues.length === 0 ? [] : padjust(pValues, 'bh');
}
