import { haversineKm, type Point } from '@rootline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gridCell } from '../src/domain/location-precision.js';
import { outboxAbout, startDemandPlatform, type TestPlatform } from './support.js';

// Alice's home, and a second place of hers in the same 5 km cell, about 3 km away.
const HOME = { latitude: 48.2082, longitude: 16.3738, city: 'Wien', country: 'AT' };
const CELL = gridCell(HOME);
// Three points around her, as a grower trilaterating her would place supplies.
const POINTS: Point[] = [
  { latitude: 48.3, longitude: 16.37 },
  { latitude: 48.15, longitude: 16.25 },
  { latitude: 48.16, longitude: 16.52 },
];
const STEPS_PER_POINT = 34; // 3 × 34 = 102 supply + match pairs per run of the attack

/**
 * The attack that placed a household 0.7 m from its home: from each point, a binary search on `maxDistanceKm`
 * between 0 and 40 km, each step a tiny supply at the point and a run of matching; "did it match?" is the answer.
 * Growers are many accounts (a fresh one every 10 pairs, below the per-day limit). Returns the transcript of
 * answers and, per point, the smallest radius that matched.
 */
async function binarySearchAttack(p: TestPlatform, run: string): Promise<{ transcript: boolean[]; radii: number[] }> {
  const transcript: boolean[] = [];
  const radii: number[] = [];
  let pair = 0;
  for (const [i, at] of POINTS.entries()) {
    let lo = 0;
    let hi = 40;
    for (let step = 0; step < STEPS_PER_POINT; step++, pair++) {
      const grower = `usr_prober_${run}_${Math.floor(pair / 10)}`;
      const mid = (lo + hi) / 2;
      const supply = await p.http('POST', '/api/demand/supply', {
        role: 'GROWER',
        sub: grower,
        body: {
          crop: 'kale',
          quantity: 0.001,
          unit: 'kg',
          window: { from: '2027-06-07', to: '2027-06-13' },
          price: 100,
          currency: 'EUR',
          location: { ...at, country: 'AT' },
        },
      });
      expect(supply.status).toBe(201);
      const res = await p.http('POST', '/api/demand/match', {
        role: 'GROWER',
        sub: grower,
        body: { crop: 'kale', maxDistanceKm: Math.max(mid, 0.001) },
      });
      expect(res.status).toBe(201);
      const matched = (res.body.data.matches as { supplyId: string }[]).some((m) => m.supplyId === supply.body.data.id);
      transcript.push(matched);
      if (matched) hi = mid;
      else lo = mid;
    }
    radii[i] = hi;
  }
  return { transcript, radii };
}

/** The attacker's best point: least squares on the three radii over a 50 m lattice around the three points. */
function trilaterate(radii: number[]): Point {
  let best = { latitude: 0, longitude: 0 };
  let bestErr = Number.POSITIVE_INFINITY;
  for (let lat = 48.1; lat <= 48.35; lat += 0.00045) {
    for (let lon = 16.2; lon <= 16.6; lon += 0.0007) {
      const x = { latitude: lat, longitude: lon };
      const err = POINTS.reduce((a, pt, i) => a + (haversineKm(x, pt) - (radii[i] as number)) ** 2, 0);
      if (err < bestErr) {
        bestErr = err;
        best = x;
      }
    }
  }
  return best;
}

describe('matching locates no household finer than its 5 km cell', () => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startDemandPlatform();
  });
  afterAll(async () => p?.stop());

  const saveHome = (location: typeof HOME) =>
    p.http('POST', '/api/demand/preferences', {
      role: 'USER',
      sub: 'usr_alice',
      body: { location, householdSize: 2, radiusKm: 50, items: [{ crop: 'kale', quantityPerWeek: 7, unit: 'kg' }] },
    });

  it('matching is a location oracle: 102 supply+match pairs of binary search from three points end no closer than the 5 km cell', async () => {
    // Alice at one corner of her cell: the attack's answers…
    const first = { ...HOME, latitude: CELL.latitude - 0.015, longitude: CELL.longitude - 0.02 };
    const second = { ...HOME, latitude: CELL.latitude + 0.015, longitude: CELL.longitude + 0.02 };
    expect(gridCell(first).key).toBe(CELL.key);
    expect(gridCell(second).key).toBe(CELL.key);
    const apart = haversineKm(first, second);
    expect(apart).toBeGreaterThan(3);

    expect((await saveHome(first)).status).toBe(201);
    const a = await binarySearchAttack(p, 'a');
    // …and at the opposite corner, 3.5 km away, are the same, answer for answer.
    expect((await saveHome(second)).status).toBe(201);
    const b = await binarySearchAttack(p, 'b');
    expect(a.transcript.length).toBeGreaterThanOrEqual(100);
    expect(b.transcript).toEqual(a.transcript);
    expect(a.transcript).toContain(true);

    // So whatever the attacker concludes, it is the same point for both homes: at least half their distance
    // from one of them. The least-squares point of the search is farther than that from the nearer one too.
    const guess = trilaterate(a.radii);
    const miss = Math.max(haversineKm(guess, first), haversineKm(guess, second));
    expect(miss).toBeGreaterThanOrEqual(apart / 2);
    // The radius found from each point is a whole 5 km step (the search cannot go below the precision).
    for (const r of a.radii) expect(Math.abs(r / 5 - Math.round(r / 5))).toBeLessThan(0.01);
  }, 240_000);

  it('limits runs of matching per grower and crop a day, and records each probe in the audit log', async () => {
    const grower = 'usr_limited';
    const body = {
      crop: 'kale',
      quantity: 1,
      unit: 'kg',
      window: { from: '2027-06-07', to: '2027-06-13' },
      price: 100,
      currency: 'EUR',
      location: { latitude: 48.3, longitude: 16.37, country: 'AT' },
    };
    for (let i = 0; i < 10; i++) {
      expect((await p.http('POST', '/api/demand/supply', { role: 'GROWER', sub: grower, body })).status).toBe(201);
      const run = await p.http('POST', '/api/demand/match', {
        role: 'GROWER',
        sub: grower,
        body: { crop: 'kale', maxDistanceKm: 0.02 },
      });
      expect(run.status).toBe(201);
    }
    const refused = await p.http('POST', '/api/demand/match', {
      role: 'GROWER',
      sub: grower,
      body: { crop: 'kale', maxDistanceKm: 0.02 },
    });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({
      code: 'RATE_LIMITED',
      details: [{ field: 'body/crop', reason: 'probe-limit', limit: 10 }],
    });
    const moved = await p.http('POST', '/api/demand/supply', { role: 'GROWER', sub: grower, body });
    expect(moved.status).toBe(429);
    expect(moved.body.error.code).toBe('RATE_LIMITED');
    // Another crop is another count; an ADMIN is not limited.
    const other = await p.http('POST', '/api/demand/match', { role: 'GROWER', sub: grower, body: { crop: 'leek' } });
    expect(other.status).toBe(400);
    expect(
      (await p.http('POST', '/api/demand/match', { role: 'GROWER', sub: grower, body: { crop: 'tomato' } })).status,
    ).toBe(201);

    // Every run and every refusal is an `evt.demand.probe.recorded` event, which the audit log records: radius asked, radius
    // applied (rounded up to 5 km), the day's count.
    const probes = (await outboxAbout(p, grower)).filter((e) => e.subject === 'evt.demand.probe.recorded');
    const matchProbes = probes.filter((e) => e.payload.what === 'match' && e.payload.crop === 'kale');
    expect(matchProbes).toHaveLength(11);
    expect(matchProbes[0]?.payload).toMatchObject({ requestedKm: 0.02, appliedKm: 5, refused: false, today: 1 });
    expect(matchProbes.at(-1)?.payload).toMatchObject({ refused: true, today: 11, limit: 10 });
    expect(probes.filter((e) => e.payload.what === 'supply')).toEqual([
      expect.objectContaining({ payload: expect.objectContaining({ refused: true, crop: 'kale', limit: 10 }) }),
    ]);
  });
});
