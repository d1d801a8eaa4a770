import { describe, expect, it } from 'vitest';
import {
  expectedViability,
  germinationRate,
  germinationTestProblem,
  longevityKey,
  longevityYears,
  SEED_LONGEVITY_YEARS,
} from './viability.js';

const at = (iso: string) => new Date(iso);
const test = (testedOn: string, rate: number) => ({ testedOn, rate });

describe('seed longevity table', () => {
  it('finds crops by name, plural and alias, and knows nothing of others', () => {
    expect(longevityYears('Tomato')).toBe(4);
    expect(longevityYears(' tomatoes ')).toBe(4);
    expect(longevityYears('Onions')).toBe(1);
    expect(longevityYears('lettuce')).toBe(6);
    expect(longevityKey('Swiss chard')).toBe('chard');
    expect(longevityKey('courgettes')).toBe('squash');
    expect(longevityYears('sunflower')).toBeNull();
    // The table as cited: lettuce is the longest-lived, onion, parsley, parsnip and salsify the shortest.
    expect(Math.max(...Object.values(SEED_LONGEVITY_YEARS))).toBe(6);
    expect(
      Object.entries(SEED_LONGEVITY_YEARS)
        .filter(([, y]) => y === 1)
        .map(([k]) => k),
    ).toEqual(['onion', 'parsley', 'parsnip', 'salsify']);
  });
});

describe('expected viability', () => {
  it('without a test: 90 % at harvest, 50 % at the crop’s life expectancy, lower after', () => {
    const harvest = expectedViability({ crop: 'tomato', harvestYear: 2026, lastTest: null, now: at('2026-07-01') });
    expect(harvest).toMatchObject({ expected: 0.9, basis: 'age', low: false, ageYears: 0, longevityYears: 4 });
    const atLife = expectedViability({ crop: 'tomato', harvestYear: 2022, lastTest: null, now: at('2026-07-01') });
    expect(atLife.expected).toBeCloseTo(0.5, 2);
    const old = expectedViability({ crop: 'onion', harvestYear: 2023, lastTest: null, now: at('2026-07-01') });
    expect(old.expected).toBeLessThan(0.01);
    expect(old.low).toBe(true);
  });

  it('from the last test: its rate on the test day, declining with the time since', () => {
    const onDay = expectedViability({
      crop: 'lettuce',
      harvestYear: 2024,
      lastTest: test('2026-03-01', 0.8),
      now: at('2026-03-01T12:00:00Z'),
    });
    expect(onDay).toMatchObject({ expected: 0.8, basis: 'test' });
    const later = expectedViability({
      crop: 'lettuce',
      harvestYear: 2024,
      lastTest: test('2026-03-01', 0.8),
      now: at('2029-03-01T12:00:00Z'),
    });
    expect(later.expected).toBeLessThan(0.8);
    expect(later.expected).toBeGreaterThan(0.5);
    // A short-lived crop falls faster from the same test.
    const parsnip = expectedViability({
      crop: 'parsnip',
      harvestYear: 2024,
      lastTest: test('2026-03-01', 0.8),
      now: at('2027-03-01T12:00:00Z'),
    });
    expect(parsnip.expected).toBeLessThan(0.5);
    expect(parsnip.low).toBe(true);
  });

  it('a crop not in the table: the test’s rate as it is, or nothing without a test', () => {
    const tested = expectedViability({
      crop: 'sunflower',
      harvestYear: 2020,
      lastTest: test('2021-01-10', 0.42),
      now: at('2026-01-01'),
    });
    expect(tested).toMatchObject({ expected: 0.42, basis: 'test', low: true, longevityYears: null });
    const untested = expectedViability({ crop: 'sunflower', harvestYear: 2020, lastTest: null, now: at('2026-01-01') });
    expect(untested).toMatchObject({ expected: null, basis: 'none', low: false });
  });

  it('a test where nothing germinated stays at 0, and a perfect one declines from 1', () => {
    expect(
      expectedViability({ crop: 'pea', harvestYear: 2025, lastTest: test('2025-10-01', 0), now: at('2026-01-01') })
        .expected,
    ).toBe(0);
    const perfect = expectedViability({
      crop: 'pea',
      harvestYear: 2025,
      lastTest: test('2025-10-01', 1),
      now: at('2026-10-01'),
    });
    expect(perfect.expected).toBeGreaterThan(0.9);
    expect(perfect.expected).toBeLessThan(1);
  });
});

describe('germination tests', () => {
  it('compute their rate and refuse impossible ones', () => {
    expect(germinationRate(50, 43)).toBe(0.86);
    expect(germinationRate(3, 1)).toBe(0.333);
    const now = at('2026-11-29T10:00:00Z');
    expect(germinationTestProblem({ testedOn: '2026-11-20', seedsSown: 10, germinated: 9 }, 2025, now)).toBeNull();
    expect(germinationTestProblem({ testedOn: '2026-11-20', seedsSown: 10, germinated: 11 }, 2025, now)?.field).toBe(
      'germinated',
    );
    expect(germinationTestProblem({ testedOn: '2026-02-30', seedsSown: 10, germinated: 1 }, 2025, now)?.message).toBe(
      'testedOn: no such day',
    );
    expect(germinationTestProblem({ testedOn: '2026-12-01', seedsSown: 10, germinated: 1 }, 2025, now)?.field).toBe(
      'testedOn',
    );
    expect(germinationTestProblem({ testedOn: '2024-12-01', seedsSown: 10, germinated: 1 }, 2025, now)?.field).toBe(
      'testedOn',
    );
  });
});
