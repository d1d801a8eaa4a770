/**
 * Demand forecasting: Holt's linear exponential smoothing (additive trend), parameters chosen by grid search on
 * one-step-ahead squared error, prediction intervals from the ETS(A,A,N) variance, and a rolling-origin back-test
 * (MAPE and MASE). A shorter history gets the naive forecast (the last week carried on) with its interval.
 * References: Hyndman & Athanasopoulos, Forecasting: Principles and Practice, 3rd ed., §8.2 (Holt), §8.7 table 8.8
 * (interval variance), §5.5 (naive intervals), §5.8 (MASE, time-series cross-validation). See docs/demand.md.
 */

/** Weeks of history Holt's method needs: two to start its recursion, two more to estimate its error. */
export const HOLT_MIN_WEEKS = 4;

/**
 * The naive forecast's spread while the history shows no week-to-week change yet (one week): σ taken as half the
 * last week's demand, a stated assumption that the first recorded change replaces.
 */
export const NAIVE_PRIOR_SPREAD = 0.5;

export type ForecastMethod = 'naive' | 'holt';

/** The method for a series of `weeks` weeks: Holt from HOLT_MIN_WEEKS on, naive below. */
export function methodFor(weeks: number): ForecastMethod {
  return weeks >= HOLT_MIN_WEEKS ? 'holt' : 'naive';
}

const GRID = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];
/** Normal quantiles of the 80 % and 95 % central intervals. */
const Z80 = 1.2816;
const Z95 = 1.96;

export interface HoltFit {
  alpha: number;
  beta: number;
  level: number;
  trend: number;
  /** One-step-ahead errors, from the third point on. */
  residuals: number[];
}

/** Runs Holt's recursion (level from the first point, trend from the first difference) with given parameters. */
export function holt(y: number[], alpha: number, beta: number): HoltFit {
  let level = y[0] ?? 0;
  let trend = y.length > 1 ? (y[1] as number) - level : 0;
  const residuals: number[] = [];
  for (let t = 1; t < y.length; t++) {
    const forecast = level + trend;
    if (t >= 2) residuals.push((y[t] as number) - forecast);
    const prevLevel = level;
    level = alpha * (y[t] as number) + (1 - alpha) * forecast;
    trend = beta * (level - prevLevel) + (1 - beta) * trend;
  }
  return { alpha, beta, level, trend, residuals };
}

/** Holt with the (alpha, beta) of the grid that minimises the one-step squared error (ties: smaller values). */
export function fitHolt(y: number[]): HoltFit {
  let best: HoltFit | undefined;
  let bestSse = Number.POSITIVE_INFINITY;
  for (const alpha of GRID) {
    for (const beta of GRID) {
      const fit = holt(y, alpha, beta);
      const sse = fit.residuals.reduce((a, e) => a + e * e, 0);
      if (sse < bestSse - 1e-12) {
        best = fit;
        bestSse = sse;
      }
    }
  }
  return best ?? holt(y, 0.5, 0.1);
}

export interface ForecastPoint {
  demandKg: number;
  pi80: { lower: number; upper: number };
  pi95: { lower: number; upper: number };
}

const r3 = (x: number) => Math.round(x * 1000) / 1000;

/**
 * `h` weeks ahead from a fitted model. The h-step variance of ETS(A,A,N) is σ²(1 + Σ_{j=1}^{h−1}(α + αβj)²),
 * σ² the mean squared one-step residual (n − 2 degrees of freedom: two parameters were fitted). Demand cannot be
 * negative, so forecasts and bounds are floored at 0.
 */
export function forecastAhead(fit: HoltFit, h: number): ForecastPoint[] {
  const n = fit.residuals.length;
  const sigma2 = n > 2 ? fit.residuals.reduce((a, e) => a + e * e, 0) / (n - 2) : 0;
  const out: ForecastPoint[] = [];
  let sum = 0;
  for (let k = 1; k <= h; k++) {
    if (k > 1) sum += (fit.alpha + fit.alpha * fit.beta * (k - 1)) ** 2;
    out.push(point(fit.level + k * fit.trend, Math.sqrt(sigma2 * (1 + sum))));
  }
  return out;
}

/** The points of a forecast of mean `mean` and h-step standard deviation `sd`, floored at 0. */
function point(mean: number, sd: number): ForecastPoint {
  const floor = (x: number) => r3(Math.max(0, x));
  return {
    demandKg: floor(mean),
    pi80: { lower: floor(mean - Z80 * sd), upper: floor(mean + Z80 * sd) },
    pi95: { lower: floor(mean - Z95 * sd), upper: floor(mean + Z95 * sd) },
  };
}

/**
 * The naive forecast `h` weeks ahead: every week as the last one. σ² is the mean squared week-to-week change (the
 * naive one-step residuals, no parameter fitted), σₕ = σ √h (FPP §5.5); without any change yet (one week),
 * σ = NAIVE_PRIOR_SPREAD × the last week. Floored at 0 like Holt's.
 */
export function naiveAhead(y: number[], h: number): ForecastPoint[] {
  const last = y.at(-1) ?? 0;
  const changes = y.slice(1).map((v, i) => v - (y[i] as number));
  const sigma = changes.length
    ? Math.sqrt(changes.reduce((a, d) => a + d * d, 0) / changes.length)
    : NAIVE_PRIOR_SPREAD * Math.abs(last);
  return Array.from({ length: h }, (_, i) => point(last, sigma * Math.sqrt(i + 1)));
}

/**
 * The naive forecast's one-week-ahead back-test: each week forecast by the week before. MASE is 1 by construction
 * (it is the scale), null when the series never changes; nothing to score with one week.
 */
export function backtestNaive(y: number[]): Backtest {
  const errors = y.slice(1).map((v, i) => ({ e: v - (y[i] as number), actual: v }));
  if (errors.length === 0) return { points: 0, mape: null, mase: null };
  const nonZero = errors.filter((x) => x.actual !== 0);
  const mape = nonZero.length
    ? (100 * nonZero.reduce((a, x) => a + Math.abs(x.e / x.actual), 0)) / nonZero.length
    : null;
  const changed = errors.some((x) => x.e !== 0);
  return {
    points: errors.length,
    mape: mape === null ? null : Math.round(mape * 100) / 100,
    mase: changed ? 1 : null,
  };
}

export interface Backtest {
  points: number;
  mape: number | null;
  mase: number | null;
}

/**
 * Rolling-origin back-test: for each t from `minTrain` on, fit on y[0..t−1] (parameters chosen again) and forecast
 * y[t]. MAPE = mean |e/y| × 100 over the points with y ≠ 0 (null if none); MASE = mean |e| divided by the in-sample
 * mean absolute one-step change of the naive forecast (null when the series never changes).
 */
export function backtest(y: number[], minTrain = 3): Backtest {
  const errors: { e: number; actual: number }[] = [];
  for (let t = minTrain; t < y.length; t++) {
    const fit = fitHolt(y.slice(0, t));
    errors.push({ e: (y[t] as number) - (fit.level + fit.trend), actual: y[t] as number });
  }
  if (errors.length === 0) return { points: 0, mape: null, mase: null };
  const nonZero = errors.filter((x) => x.actual !== 0);
  const mape = nonZero.length
    ? (100 * nonZero.reduce((a, x) => a + Math.abs(x.e / x.actual), 0)) / nonZero.length
    : null;
  let naive = 0;
  for (let t = 1; t < y.length; t++) naive += Math.abs((y[t] as number) - (y[t - 1] as number));
  naive /= y.length - 1;
  const mae = errors.reduce((a, x) => a + Math.abs(x.e), 0) / errors.length;
  return {
    points: errors.length,
    mape: mape === null ? null : Math.round(mape * 100) / 100,
    mase: naive === 0 ? null : Math.round((mae / naive) * 1000) / 1000,
  };
}

/**
 * A regular weekly series from recorded weeks (`YYYY-MM-DD` Mondays, ascending): a week with no record takes the
 * value of the week before it (carried forward), so the model sees one value per week.
 */
export function weeklySeries(
  rows: { weekStart: string; demandKg: number }[],
): { weekStart: string; demandKg: number }[] {
  const out: { weekStart: string; demandKg: number }[] = [];
  const WEEK = 7 * 86_400_000;
  for (const r of rows) {
    const prev = out.at(-1);
    if (prev) {
      for (let t = Date.parse(prev.weekStart) + WEEK; t < Date.parse(r.weekStart); t += WEEK) {
        out.push({ weekStart: new Date(t).toISOString().slice(0, 10), demandKg: prev.demandKg });
      }
    }
    out.push({ weekStart: r.weekStart, demandKg: r.demandKg });
  }
  return out;
}
