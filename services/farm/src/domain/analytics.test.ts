import { describe, expect, it } from 'vitest';
import { type BatchFacts, farmAnalytics, occupiedM2Days } from './analytics.js';

const d = (day: number) => new Date(Date.UTC(2026, 0, 1) + day * 86_400_000);
const zones = [
  { id: 'z1', name: 'A', areaM2: 100, capacity: 1000 },
  { id: 'z2', name: 'B', areaM2: 50, capacity: 500 },
];
const batch = (over: Partial<BatchFacts>): BatchFacts => ({
  id: 'b',
  zoneId: 'z1',
  recipeId: 'r1',
  crop: 'lettuce',
  plantCount: 1000,
  status: 'harvested',
  startedAt: d(0),
  closedAt: d(35),
  yieldKg: 350,
  ...over,
});

describe('farm analytics', () => {
  const batches = [
    batch({ id: 'b1' }),
    batch({ id: 'b2', zoneId: 'z2', plantCount: 250, crop: 'basil', recipeId: 'r2', closedAt: d(30), yieldKg: 50 }),
    batch({ id: 'b3', status: 'failed', startedAt: d(40), closedAt: d(50), yieldKg: null }),
    batch({ id: 'b4', status: 'open', startedAt: d(60), closedAt: null, yieldKg: null, plantCount: 500 }),
  ];
  const readings = new Map([
    ['b1', { count: 80, inTarget: 60 }],
    ['b2', { count: 20, inTarget: 20 }],
  ]);
  const result = farmAnalytics({ from: d(0), to: d(100), zones, batches, readings }, new Map([['r1', 'Lettuce (v1)']]));

  it('counts batches, success rate, yield, cycle days and compliance', () => {
    expect(result.totals).toMatchObject({
      batchesStarted: 4,
      harvested: 2,
      failed: 1,
      successRate: 0.6667,
      yieldKg: 400,
      cycleDays: 32.5,
      readings: 100,
      compliance: 0.8,
    });
  });

  it('gives the farm’s yield per m² per year over its whole growing area and period', () => {
    // 400 kg over 150 m² for 100 days.
    expect(result.totals.yieldPerM2PerYear).toBe(Math.round(((400 * 365) / (150 * 100)) * 100) / 100);
  });

  it('gives a crop’s yield per m² per year over the area its batches occupied', () => {
    const lettuce = result.byCrop.find((c) => c.crop === 'lettuce')!;
    // 350 kg on 100 m² for 35 days.
    expect(lettuce.yieldPerM2PerYear).toBe(Math.round(((350 * 365) / (100 * 35)) * 100) / 100);
    const basil = result.byCrop.find((c) => c.crop === 'basil')!;
    // 50 kg on half of 50 m² for 30 days.
    expect(basil.yieldPerM2PerYear).toBe(Math.round(((50 * 365) / (25 * 30)) * 100) / 100);
    expect(result.byRecipe.map((r) => r.name)).toEqual(['Lettuce (v1)', 'r2']);
  });

  it('measures utilisation as plant-site days used over those available', () => {
    // z1: 1000×35 + 1000×10 + 500×40 of 1000×100; z2: 250×30 of 500×100.
    expect(result.zones).toEqual([
      { zoneId: 'z1', name: 'A', utilisation: 0.65 },
      { zoneId: 'z2', name: 'B', utilisation: 0.15 },
    ]);
    expect(result.totals.utilisation).toBe(Math.round(((65_000 + 7_500) / 150_000) * 10_000) / 10_000);
  });

  it('answers null ratios for an empty period', () => {
    const empty = farmAnalytics({ from: d(0), to: d(1), zones: [], batches: [], readings: new Map() }, new Map());
    expect(empty.totals).toMatchObject({
      successRate: null,
      yieldPerM2PerYear: null,
      utilisation: null,
      compliance: null,
    });
  });

  it('counts a batch harvested within seconds of its start as occupying its space for a day, not seconds', () => {
    // The reported case: 0.96 kg harvested 0.3 s after the start, on 720 of 2400 sites of 96 m² (28.8 m²).
    const start = d(10);
    const quick = batch({
      id: 'q',
      zoneId: 'z3',
      plantCount: 720,
      startedAt: start,
      closedAt: new Date(start.getTime() + 300),
      yieldKg: 0.96,
    });
    const input = {
      from: d(0),
      to: d(365),
      zones: [{ id: 'z3', name: 'C', areaM2: 96, capacity: 2400 }],
      batches: [quick],
      readings: new Map(),
    };
    const out = farmAnalytics(input, new Map());
    const lettuce = out.byCrop[0]!;
    expect(lettuce.yieldKg).toBe(0.96);
    // 0.96 kg × 365 ÷ (28.8 m² × 1 day), not the 3,473,525 kg of 28.8 m² × 0.3 s.
    expect(lettuce.yieldPerM2PerYear).toBe(Math.round(((0.96 * 365) / 28.8) * 100) / 100);
    expect(lettuce.yieldPerM2PerYear).toBeLessThan(100);
    // The farm's figure over its whole area and the year agrees with its total: 0.96 kg ÷ 96 m².
    expect(out.totals.yieldPerM2PerYear).toBe(0.01);
  });

  it('measures occupied m²·days by the share of plant sites, over the cycle', () => {
    const zone = { id: 'z', name: 'Z', areaM2: 100, capacity: 1000 };
    expect(occupiedM2Days(zone, 500, 30)).toBe(1500);
    expect(occupiedM2Days(zone, 5000, 30)).toBe(3000);
    expect(occupiedM2Days(zone, 500, 0.00001)).toBe(50);
  });
});
