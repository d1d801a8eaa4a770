import { describe, expect, it } from 'vitest';
import {
  batchState,
  cycleDays,
  dli,
  expectedHarvestAt,
  failRefusal,
  harvestRefusal,
  isEarlyHarvest,
  isOwnHarvest,
  type PhaseSpan,
  phaseAt,
  startRefusal,
} from './batch-state.js';
import { SHIPPED_RECIPES } from './recipes.js';

const lettuce = SHIPPED_RECIPES.find((r) => r.crop === 'lettuce')!.phases as PhaseSpan[];
const start = new Date('2026-11-01T00:00:00Z');
const day = (n: number) => new Date(start.getTime() + n * 86_400_000);

describe('batch state', () => {
  it('computes DLI from PPFD and photoperiod', () => {
    expect(dli(295, 16)).toBe(16.99);
    expect(dli(0, 0)).toBe(0);
  });

  it('expects the harvest after the sum of the phases', () => {
    expect(cycleDays(lettuce)).toBe(35);
    expect(expectedHarvestAt(start, lettuce).toISOString()).toBe('2026-12-06T00:00:00.000Z');
  });

  it('finds the phase and the days spent in it', () => {
    expect(phaseAt(lettuce, start, day(0))).toMatchObject({ span: { phase: 'germination' }, daysInPhase: 0 });
    expect(phaseAt(lettuce, start, day(4.5))).toMatchObject({ span: { phase: 'seedling' }, daysInPhase: 1 });
    expect(phaseAt(lettuce, start, day(11))).toMatchObject({ span: { phase: 'vegetative' }, daysInPhase: 0 });
    expect(phaseAt(lettuce, start, day(40))).toMatchObject({ span: { phase: 'vegetative' }, daysInPhase: 29 });
  });

  it('moves germinating → growing → ready by age; harvested and failed are final', () => {
    expect(batchState('open', lettuce, start, day(1))).toBe('germinating');
    expect(batchState('open', lettuce, start, day(3))).toBe('growing');
    expect(batchState('open', lettuce, start, day(35))).toBe('ready');
    expect(batchState('harvested', lettuce, start, day(1))).toBe('harvested');
    expect(batchState('failed', lettuce, start, day(40))).toBe('failed');
  });

  it('allows harvest of every open state and refuses harvested and failed batches', () => {
    expect(harvestRefusal('germinating')).toBeUndefined();
    expect(harvestRefusal('growing')).toBeUndefined();
    expect(harvestRefusal('ready')).toBeUndefined();
    expect(harvestRefusal('harvested')).toMatchObject({ code: 'DUPLICATE', message: /already harvested/ });
    expect(harvestRefusal('failed')).toMatchObject({ code: 'CONFLICT', details: { state: 'failed' } });
  });

  it('fails an open batch unless a harvest of it is being recorded', () => {
    expect(failRefusal('open', false)).toBeUndefined();
    expect(failRefusal('open', true)).toMatchObject({ code: 'CONFLICT', details: { state: 'harvesting' } });
    expect(failRefusal('harvested', false)).toMatchObject({ code: 'CONFLICT', details: { state: 'harvested' } });
    expect(failRefusal('failed', false)).toMatchObject({ code: 'DUPLICATE', details: { state: 'failed' } });
  });

  it('flags a harvest before the expected harvest date as early', () => {
    const expected = expectedHarvestAt(start, lettuce);
    expect(isEarlyHarvest(expected, day(0))).toBe(true);
    expect(isEarlyHarvest(expected, day(34.9))).toBe(true);
    expect(isEarlyHarvest(expected, day(35))).toBe(false);
    expect(isEarlyHarvest(expected, day(40))).toBe(false);
  });

  it('accepts a start from the recipe’s cycle plus a year ago up to five minutes ahead', () => {
    const now = day(0);
    const minutes = (n: number) => new Date(now.getTime() + n * 60_000);
    expect(startRefusal(now, lettuce, now)).toBeUndefined();
    expect(startRefusal(day(-10), lettuce, now)).toBeUndefined();
    expect(startRefusal(minutes(5), lettuce, now)).toBeUndefined();
    expect(startRefusal(minutes(6), lettuce, now)).toMatch(/future/);
    expect(startRefusal(day(-(35 + 365)), lettuce, now)).toBeUndefined();
    expect(startRefusal(day(-(35 + 366)), lettuce, now)).toMatch(/earlier than/);
  });

  it('a stored harvest is the caller’s only when it names the caller’s request', () => {
    expect(isOwnHarvest({ requestRef: 'ref-a' }, 'ref-a')).toBe(true);
    expect(isOwnHarvest({ requestRef: 'ref-a' }, 'ref-b')).toBe(false);
    // A harvest stored before requests were named belongs to no later request.
    expect(isOwnHarvest({ requestRef: null }, 'ref-a')).toBe(false);
  });
});
