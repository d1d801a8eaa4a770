import { describe, expect, it } from 'vitest';
import {
  backtest,
  backtestNaive,
  fitHolt,
  forecastAhead,
  holt,
  methodFor,
  naiveAhead,
  weeklySeries,
} from './forecast.js';

describe('Holt forecast', () => {
  it('continues a straight line exactly, with zero-width intervals', () => {
    const y = [10, 12, 14, 16, 18, 20];
    const fit = fitHolt(y);
    expect(fit.residuals.every((e) => Math.abs(e) < 1e-9)).toBe(true);
    const f = forecastAhead(fit, 3);
    expect(f.map((p) => p.demandKg)).toEqual([22, 24, 26]);
    expect(f[2]?.pi95).toEqual({ lower: 26, upper: 26 });
    expect(backtest(y)).toEqual({ points: 3, mape: 0, mase: 0 });
  });

  it('follows the recursion by hand for one step', () => {
    // level0 = 10, trend0 = 2; t=1: forecast 12, level = .5·12 + .5·12 = 12, trend = .5·2 + .5·2 = 2;
    // t=2: forecast 14, error 16 − 14 = 2, level = .5·16 + .5·14 = 15, trend = .5·3 + .5·2 = 2.5.
    const fit = holt([10, 12, 16], 0.5, 0.5);
    expect(fit).toEqual({ alpha: 0.5, beta: 0.5, level: 15, trend: 2.5, residuals: [2] });
  });

  it('widens intervals with the horizon and scores a noisy series against the naive forecast', () => {
    const y = [20, 22, 19, 24, 23, 26, 25, 28, 27, 30, 29, 32];
    const f = forecastAhead(fitHolt(y), 4);
    const width = f.map((p) => p.pi95.upper - p.pi95.lower);
    expect(width[3]).toBeGreaterThan(width[0] as number);
    expect(f[0]?.pi80.lower).toBeGreaterThan(f[0]?.pi95.lower as number);
    const b = backtest(y);
    expect(b.points).toBe(9);
    expect(b.mape).toBeGreaterThan(0);
    expect(b.mase).toBeLessThan(1.5);
  });

  it('has nothing to score with three points or fewer', () => {
    expect(backtest([5, 6, 7])).toEqual({ points: 0, mape: null, mase: null });
  });
});

describe('naive forecast, for a history shorter than four weeks', () => {
  it('is chosen below four weeks, Holt from four', () => {
    expect([1, 2, 3, 4, 12].map(methodFor)).toEqual(['naive', 'naive', 'naive', 'holt', 'holt']);
  });

  it('carries the last week on, with σ from the week-to-week changes widening as √h', () => {
    // Changes 2 and −2: σ = 2; week 1: 8 ± 1.96·2, week 4: 8 ± 1.96·2·2.
    const f = naiveAhead([6, 8, 6, 8], 4);
    expect(f.map((p) => p.demandKg)).toEqual([8, 8, 8, 8]);
    expect(f[0]?.pi95).toEqual({ lower: 4.08, upper: 11.92 });
    expect(f[0]?.pi80).toEqual({ lower: 5.437, upper: 10.563 });
    expect(f[3]?.pi95).toEqual({ lower: 0.16, upper: 15.84 });
  });

  it('takes half the only week as σ while no change is known, floored at 0', () => {
    const [first] = naiveAhead([10], 1);
    expect(first).toEqual({ demandKg: 10, pi80: { lower: 3.592, upper: 16.408 }, pi95: { lower: 0.2, upper: 19.8 } });
    expect(naiveAhead([10], 3)[2]?.pi95.lower).toBe(0);
  });

  it('back-tests each week against the week before (MASE 1 by construction)', () => {
    expect(backtestNaive([10])).toEqual({ points: 0, mape: null, mase: null });
    expect(backtestNaive([10, 10])).toEqual({ points: 1, mape: 0, mase: null });
    expect(backtestNaive([10, 8, 10])).toEqual({ points: 2, mape: 22.5, mase: 1 });
  });
});

describe('weekly series', () => {
  it('carries the last value into weeks with no record', () => {
    expect(
      weeklySeries([
        { weekStart: '2026-11-02', demandKg: 3 },
        { weekStart: '2026-11-23', demandKg: 5 },
      ]),
    ).toEqual([
      { weekStart: '2026-11-02', demandKg: 3 },
      { weekStart: '2026-11-09', demandKg: 3 },
      { weekStart: '2026-11-16', demandKg: 3 },
      { weekStart: '2026-11-23', demandKg: 5 },
    ]);
  });
});
