import { userRegistered } from '@rootline/contracts/auth';
import { batchFailed, batchHarvested, batchStarted } from '@rootline/contracts/farm-batches';
import { plantCloned, plantRegistered } from '@rootline/contracts/plants';
import { transportCompleted } from '@rootline/contracts/transport';
import { describe, expect, it } from 'vitest';
import { factIncrements, mergeIncrements, rollupIncrements, transportFact, utcDay } from './analytics-rollup.js';

const AT = '2026-11-20T23:30:00.000Z';

const journey = (over: Record<string, unknown> = {}) => ({
  subject: transportCompleted.subject,
  occurredAt: AT,
  payload: {
    eventId: 'tev_a',
    kind: 'distribution',
    plantId: 'plt_a',
    seedLotId: null,
    handlerId: 'usr_ada',
    recipientId: null,
    transportMode: 'diesel-van',
    distanceKm: 12.5,
    kgCo2e: 3.125,
    eventTime: '2026-11-19T09:30:00+02:00',
    corrects: null,
    ...over,
  },
});

describe('rollupIncrements', () => {
  it('counts a registered plant on its UTC day by species (scientific name first) and privacy level', () => {
    const [inc, ...rest] = rollupIncrements({
      subject: plantRegistered.subject,
      occurredAt: '2026-11-20T23:30:00-02:00',
      payload: { plantId: 'plt_a', commonName: 'Tomato', scientificName: 'Solanum lycopersicum', privacyLevel: 'city' },
    });
    expect(rest).toEqual([]);
    // 23:30 at −02:00 is 01:30 UTC the next day.
    expect(inc).toEqual({
      series: 'plants',
      day: '2026-11-21',
      d1: 'Solanum lycopersicum',
      d2: 'city',
      d3: '',
      count: 1,
      distanceKm: 0,
      kgCo2e: 0,
      yieldKg: 0,
    });
  });

  it('falls back to the common name, and an unknown privacy level, for events without them', () => {
    const [inc] = rollupIncrements({
      subject: plantRegistered.subject,
      occurredAt: AT,
      payload: { plantId: 'plt_a', commonName: ' Basil ' },
    });
    expect(inc).toMatchObject({ d1: 'Basil', d2: '' });
  });

  it('counts a propagation by its type', () => {
    const incs = rollupIncrements({
      subject: plantCloned.subject,
      occurredAt: AT,
      payload: { plantId: 'plt_b', parentPlantId: 'plt_a', propagationType: 'cutting', generation: 1 },
    });
    expect(incs).toMatchObject([{ series: 'propagations', day: '2026-11-20', d1: 'cutting', count: 1 }]);
  });

  it('counts a journey event on the day of its eventTime, network-wide and for its handler', () => {
    const incs = rollupIncrements(journey());
    const figures = { count: 1, distanceKm: 12.5, kgCo2e: 3.125, yieldKg: 0 };
    expect(incs).toEqual([
      { series: 'transport', day: '2026-11-19', d1: 'distribution', d2: 'diesel-van', d3: '', ...figures },
      { series: 'transport-user', day: '2026-11-19', d1: 'usr_ada', d2: 'distribution', d3: 'diesel-van', ...figures },
    ]);
  });

  it('counts farm batches, harvests with their yield, and failures', () => {
    const started = rollupIncrements({
      subject: batchStarted.subject,
      occurredAt: AT,
      payload: { batchId: 'b', farmId: 'f', zoneId: 'z', recipeId: 'r', crop: 'lettuce', plantId: null },
    });
    const harvested = rollupIncrements({
      subject: batchHarvested.subject,
      occurredAt: AT,
      payload: { batchId: 'b', harvestId: 'h', farmId: 'f', crop: 'lettuce', yieldKg: 4.5, qualityGrade: 'premium' },
    });
    const failed = rollupIncrements({
      subject: batchFailed.subject,
      occurredAt: AT,
      payload: { batchId: 'c', farmId: 'f', reason: 'mould' },
    });
    expect(started).toMatchObject([{ series: 'farm-batches', d1: 'lettuce', count: 1 }]);
    expect(harvested).toMatchObject([{ series: 'farm-harvests', d1: 'lettuce', count: 1, yieldKg: 4.5 }]);
    expect(failed).toMatchObject([{ series: 'farm-failures', d1: '', count: 1 }]);
  });

  it('adds nothing for events analytics does not count, nor for malformed ones', () => {
    expect(rollupIncrements({ subject: userRegistered.subject, occurredAt: AT, payload: { userId: 'u' } })).toEqual([]);
    expect(rollupIncrements({ subject: plantRegistered.subject, occurredAt: 'yesterday', payload: {} })).toEqual([]);
    expect(rollupIncrements({ ...journey(), payload: null })).toEqual([]);
    expect(rollupIncrements(journey({ handlerId: 42 }))).toEqual([]);
  });

  it('bounds a dimension value taken from user input', () => {
    const [inc] = rollupIncrements({
      subject: plantRegistered.subject,
      occurredAt: AT,
      payload: { plantId: 'p', commonName: 'x'.repeat(1000) },
    });
    expect(inc?.d1).toHaveLength(200);
  });
});

describe('transportFact and corrections', () => {
  it('keeps what a journey event contributes and the event it corrects', () => {
    expect(transportFact(journey({ corrects: 'tev_old', transportMode: '' }))).toEqual({
      eventId: 'tev_a',
      day: '2026-11-19',
      kind: 'distribution',
      mode: 'none',
      handlerId: 'usr_ada',
      distanceKm: 12.5,
      kgCo2e: 3.125,
      corrects: 'tev_old',
    });
    expect(transportFact({ subject: plantRegistered.subject, occurredAt: AT, payload: {} })).toBeUndefined();
  });

  it('takes a corrected event back out: the two cancel in a merge', () => {
    const fact = transportFact(journey());
    if (!fact) throw new Error('no fact');
    expect(mergeIncrements([...factIncrements(fact, 1), ...factIncrements(fact, -1)])).toEqual([]);
  });
});

describe('mergeIncrements', () => {
  it('sums increments of one row and orders rows by their key', () => {
    const plant = (name: string) =>
      rollupIncrements({
        subject: plantRegistered.subject,
        occurredAt: AT,
        payload: { plantId: 'p', commonName: name },
      });
    const merged = mergeIncrements([...plant('Tomato'), ...plant('Basil'), ...plant('Tomato')]);
    expect(merged.map((m) => [m.d1, m.count])).toEqual([
      ['Basil', 1],
      ['Tomato', 2],
    ]);
  });
});

describe('utcDay', () => {
  it('reads an instant with an offset as its UTC day', () => {
    expect(utcDay('2026-01-01T00:30:00+01:00')).toBe('2025-12-31');
    expect(utcDay('not a date')).toBeUndefined();
    expect(utcDay(7)).toBeUndefined();
  });
});
