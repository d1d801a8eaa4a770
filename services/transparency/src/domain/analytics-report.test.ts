import { AppError } from '@rootline/contracts/errors';
import { describe, expect, it } from 'vitest';
import { exportFile } from './analytics-export.js';
import {
  farmsReport,
  overviewReport,
  plantsReport,
  type RollupRow,
  resolveRange,
  sustainabilityScope,
  transportReport,
} from './analytics-report.js';

const NOW = new Date('2026-11-23T07:00:00Z');
const row = (over: Partial<RollupRow> & Pick<RollupRow, 'series'>): RollupRow => ({
  period: '2026-11-02',
  keys: [],
  count: 1,
  distanceKm: 0,
  kgCo2e: 0,
  yieldKg: 0,
  ...over,
});

function refusal(f: () => unknown) {
  try {
    f();
  } catch (e) {
    return e as AppError;
  }
  throw new Error('expected a refusal');
}

describe('resolveRange', () => {
  it('defaults to the 30 days ending today (UTC)', () => {
    expect(resolveRange({ groupBy: 'day' }, NOW)).toEqual({ from: '2026-10-25', to: '2026-11-23', groupBy: 'day' });
    expect(resolveRange({ to: '2026-03-01', groupBy: 'week' }, NOW)).toMatchObject({ from: '2026-01-31' });
  });

  it('accepts 366 days and refuses 367, a day that does not exist and from after to', () => {
    expect(resolveRange({ from: '2025-11-23', to: '2026-11-23', groupBy: 'month' }, NOW).from).toBe('2025-11-23');
    const long = refusal(() => resolveRange({ from: '2025-11-22', to: '2026-11-23', groupBy: 'day' }, NOW));
    expect(long).toBeInstanceOf(AppError);
    expect(long).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'from' } });
    expect(long.message).toContain('367 days');
    expect(refusal(() => resolveRange({ to: '2026-02-30', groupBy: 'day' }, NOW))).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { field: 'to' },
    });
    expect(refusal(() => resolveRange({ from: '2026-11-24', to: '2026-11-23', groupBy: 'day' }, NOW)).message).toBe(
      'from (2026-11-24) is after to (2026-11-23)',
    );
  });
});

const RANGE = { from: '2026-11-01', to: '2026-11-30', groupBy: 'week' as const };

describe('reports', () => {
  it('plants: rows per period and key, totals with propagations', () => {
    const report = plantsReport(RANGE, 'species', [
      row({ series: 'plants', keys: ['Basil'], count: 2 }),
      row({ series: 'plants', keys: [''], count: 1 }),
      row({ series: 'plants', period: '2026-10-26', keys: ['Tomato'], count: 3 }),
      row({ series: 'propagations', keys: ['cutting'], count: 2 }),
    ]);
    expect(report.totals).toEqual({ registered: 6, propagated: 2 });
    expect(report.series).toEqual([
      { period: '2026-10-26', key: 'Tomato', registered: 3 },
      { period: '2026-11-02', key: null, registered: 1 },
      { period: '2026-11-02', key: 'Basil', registered: 2 },
    ]);
  });

  it('transport: leaves out rows a correction emptied, and rounds float noise', () => {
    const report = transportReport(RANGE, 'none', [
      row({ series: 'transport', count: 2, distanceKm: 0.1 + 0.2, kgCo2e: 0.3 }),
      row({ series: 'transport', period: '2026-11-09', count: 0, distanceKm: 1e-17 }),
    ]);
    expect(report.series).toEqual([{ period: '2026-11-02', key: null, events: 2, distanceKm: 0.3, kgCo2e: 0.3 }]);
    expect(report.totals).toEqual({ events: 2, distanceKm: 0.3, kgCo2e: 0.3 });
  });

  it('farms: batches, harvests with yield and failures in one row per period and crop', () => {
    const report = farmsReport(RANGE, 'crop', [
      row({ series: 'farm-batches', keys: ['lettuce'], count: 3 }),
      row({ series: 'farm-harvests', keys: ['lettuce'], count: 2, yieldKg: 7.5 }),
      row({ series: 'farm-failures', keys: [''], count: 1 }),
    ]);
    expect(report.series).toEqual([
      { period: '2026-11-02', key: null, batchesStarted: 0, harvests: 0, yieldKg: 0, batchesFailed: 1 },
      { period: '2026-11-02', key: 'lettuce', batchesStarted: 3, harvests: 2, yieldKg: 7.5, batchesFailed: 0 },
    ]);
    expect(report.totals).toEqual({ batchesStarted: 3, harvests: 2, yieldKg: 7.5, batchesFailed: 1 });
  });

  it('sustainability: per mode (most kg CO2e first), seed saving and sharing counted by kind', () => {
    const s = sustainabilityScope([
      row({ series: 'transport', keys: ['seed-saving', 'none'], count: 2 }),
      row({ series: 'transport', keys: ['seed-sharing', 'bicycle'], count: 1, distanceKm: 4 }),
      row({ series: 'transport', keys: ['distribution', 'diesel-van'], count: 1, distanceKm: 10, kgCo2e: 2.5 }),
    ]);
    expect(s.totals).toEqual({ events: 4, distanceKm: 14, kgCo2e: 2.5, seedSavingEvents: 2, seedSharingEvents: 1 });
    expect(s.byMode.map((m) => m.mode)).toEqual(['diesel-van', 'bicycle', 'none']);
    expect(s.seriesByMode).toHaveLength(3);
  });

  it('overview: every dataset in one row per period, and totals over them', () => {
    const report = overviewReport(
      RANGE,
      [row({ series: 'plants', count: 4 }), row({ series: 'farm-harvests', period: '2026-11-09', yieldKg: 2 })],
      [row({ series: 'transport', keys: ['seed-saving', 'none'] })],
    );
    expect(report.series.map((r) => [r.period, r.plantsRegistered, r.seedSavingEvents, r.harvests])).toEqual([
      ['2026-11-02', 4, 1, 0],
      ['2026-11-09', 0, 0, 1],
    ]);
    expect(report.totals).toMatchObject({ plantsRegistered: 4, transportEvents: 1, harvests: 1, yieldKg: 2 });
  });
});

describe('exportFile', () => {
  it('writes CSV with a header and defuses cells a spreadsheet would run as a formula', () => {
    const file = exportFile('plants', 'csv', RANGE, 'species', [
      { period: '2026-11-02', key: '=HYPERLINK("x")', registered: 2 },
      { period: '2026-11-02', key: null, registered: 1 },
    ]);
    expect(file).toMatchObject({ filename: 'rootline-plants-2026-11-01-2026-11-30.csv', rows: 2 });
    expect(file.body).toBe('period,key,registered\n2026-11-02,"\'=HYPERLINK(""x"")",2\n2026-11-02,,1\n');
  });

  it('writes JSON as an array of rows with every column, and CSV as a header alone when nothing happened', () => {
    const json = exportFile('transport', 'json', RANGE, 'none', [{ period: '2026-11-02', events: 1 }]);
    expect(json).toMatchObject({
      filename: 'rootline-transport-2026-11-01-2026-11-30.json',
      contentType: 'application/json; charset=utf-8',
      rows: 1,
    });
    expect(JSON.parse(json.body)).toEqual([{ period: '2026-11-02', events: 1, distanceKm: null, kgCo2e: null }]);
    expect(JSON.parse(exportFile('farms', 'json', RANGE, 'none', []).body)).toEqual([]);
    expect(exportFile('farms', 'csv', RANGE, 'none', []).body).toBe(
      'period,batchesStarted,harvests,yieldKg,batchesFailed\n',
    );
  });
});
