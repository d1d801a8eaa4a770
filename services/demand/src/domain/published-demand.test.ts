import { describe, expect, it } from 'vitest';
import type { Household } from './demand.js';
import {
  DEMAND_CAP_KG,
  KG_NOISE_SCALE,
  keyedNoiseSource,
  laplace,
  type NoiseSource,
  publishDemand,
  signalCrops,
} from './published-demand.js';

const home = (consumerId: string, quantityPerWeek: number): Household => ({
  consumerId,
  latitude: 52,
  longitude: 5,
  radiusKm: 10,
  items: [
    {
      crop: 'tomato',
      quantityPerWeek,
      unit: 'kg',
      currency: 'EUR',
      organicOnly: false,
      localOnly: false,
      seasons: ['spring', 'summer', 'autumn', 'winter'],
    },
  ],
});
const weeks = [new Date('2027-06-07T00:00:00Z'), new Date('2027-06-14T00:00:00Z')];
const noNoise: NoiseSource = () => 0.5;

describe('published demand', () => {
  it('is the clipped sum without noise (an injected source of 0.5 draws zero)', () => {
    const homes = ['a', 'b', 'c', 'd', 'e'].map((id, i) => home(id, i === 0 ? 7.25 : 1));
    const out = publishDemand([{ key: 'cell:1', latitude: 52, households: homes }], weeks, noNoise);
    expect(out.households).toBe(5);
    const tomato = out.crops.find((c) => c.crop === 'tomato');
    expect(tomato).toEqual({ crop: 'tomato', consumers: 5, weeks: [DEMAND_CAP_KG + 4, DEMAND_CAP_KG + 4] });
    expect(signalCrops(out, [], weeks).crops.map((c) => c.crop)).toEqual(['tomato']);
  });

  it('draws the same noise for a season of an area in a week, whatever else is asked', () => {
    const src = keyedNoiseSource('k'.repeat(32), '2027-06-07');
    const homes = ['a', 'b', 'c', 'd', 'e'].map((id) => home(id, 1));
    const one = publishDemand([{ key: 'cell:1', latitude: 52, households: homes }], weeks, src);
    const again = publishDemand([{ key: 'cell:1', latitude: 52, households: homes }], weeks, src);
    expect(again).toEqual(one);
    const tomato = one.crops.find((c) => c.crop === 'tomato');
    // Both weeks are summer: one draw, so averaging the weeks removes nothing.
    expect(tomato?.weeks[0]).toBe(tomato?.weeks[1]);
    const u = src('cell:1|tomato|summer');
    expect(tomato?.weeks[0]).toBe(Math.max(0, Math.round((5 + laplace(u, KG_NOISE_SCALE)) * 10) / 10));
    // Another week, other noise.
    const next = publishDemand(
      [{ key: 'cell:1', latitude: 52, households: homes }],
      weeks,
      keyedNoiseSource('k'.repeat(32), '2027-06-14'),
    );
    expect(next).not.toEqual(one);
  });

  it('publishes nothing for areas without households', () => {
    const out = publishDemand([{ key: 'cell:2', latitude: 52, households: [] }], weeks, () => 0.999);
    expect(out.households).toBe(0);
    expect(out.crops.every((c) => c.consumers === 0 && c.weeks.every((w) => w === 0))).toBe(true);
  });

  it('draws Laplace noise of the stated scale', () => {
    expect(laplace(0.5, 8)).toBeCloseTo(0);
    expect(laplace(0.75, 8)).toBeCloseTo(8 * Math.log(2));
    expect(laplace(0.25, 8)).toBeCloseTo(-8 * Math.log(2));
  });
});
