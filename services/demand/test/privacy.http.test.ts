import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleHouseholds, startDemandPlatform, type TestPlatform } from './support.js';

// Alice's home; Bob grows; Carol lives next door to Alice.
const ALICE_HOME = { latitude: 48.2082, longitude: 16.3738, city: 'Wien', country: 'AT' };
const CAROL_HOME = { latitude: 48.2083, longitude: 16.3739, city: 'Wien', country: 'AT' };
const tomatoes = (quantityPerWeek: number) => [{ crop: 'tomato', quantityPerWeek, unit: 'kg' }];

describe('demand reveals no household beyond what its consumer chose', () => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startDemandPlatform();
    for (const [sub, location, kg] of [
      ['usr_alice', ALICE_HOME, 7.25],
      ['usr_carol', CAROL_HOME, 3],
    ] as const) {
      const saved = await p.http('POST', '/api/demand/preferences', {
        role: 'USER',
        sub,
        body: { location, householdSize: 2, radiusKm: 25, items: tomatoes(kg) },
      });
      expect(saved.status).toBe(201);
    }
  });
  afterAll(async () => p?.stop());

  it('matches from three points give Bob no consumer id and no distance finer than 5 km', async () => {
    // Bob commits three supplies around Alice's home, as if to trilaterate it.
    const points = [
      { latitude: 48.25, longitude: 16.37 },
      { latitude: 48.18, longitude: 16.3 },
      { latitude: 48.19, longitude: 16.45 },
    ];
    for (const [i, at] of points.entries()) {
      const res = await p.http('POST', '/api/demand/supply', {
        role: 'GROWER',
        sub: 'usr_bob',
        body: {
          crop: 'tomato',
          quantity: 1 + i,
          unit: 'kg',
          window: { from: '2027-06-07', to: '2027-06-13' },
          price: 300,
          currency: 'EUR',
          location: { ...at, country: 'AT' },
        },
      });
      expect(res.status).toBe(201);
    }
    const res = await p.http('POST', '/api/demand/match', { role: 'GROWER', sub: 'usr_bob', body: { crop: 'tomato' } });
    expect(res.status).toBe(201);
    const { matches } = res.body.data as { matches: { consumerId: string | null; distanceKm: number }[] };
    expect(matches.length).toBeGreaterThanOrEqual(3);
    expect(JSON.stringify(res.body)).not.toContain('usr_alice');
    expect(JSON.stringify(res.body)).not.toContain('usr_carol');
    for (const m of matches) {
      expect(m.consumerId).toBeNull();
      expect(m.distanceKm % 5).toBe(0);
      expect(m.distanceKm).toBeGreaterThan(0);
    }
    // Reading them again, commitment by commitment, tells him no more.
    const supplies = await p.http('GET', '/api/demand/supply', { role: 'GROWER', sub: 'usr_bob' });
    expect(supplies.body.data).toHaveLength(3);
    for (const { id } of supplies.body.data as { id: string }[]) {
      const again = await p.http('GET', `/api/demand/supply/${id}/matches`, { role: 'GROWER', sub: 'usr_bob' });
      expect(again.status).toBe(200);
      expect(JSON.stringify(again.body)).not.toMatch(/usr_alice|usr_carol/);
      for (const m of again.body.data as { consumerId: string | null; distanceKm: number }[]) {
        expect(m.consumerId).toBeNull();
        expect(m.distanceKm % 5).toBe(0);
      }
      // Nor does Alice learn of Bob's commitment through its matches.
      expect((await p.http('GET', `/api/demand/supply/${id}/matches`, { role: 'USER', sub: 'usr_alice' })).status).toBe(
        404,
      );
    }
    // Alice's preferences stay hers.
    expect((await p.http('GET', '/api/demand/preferences/usr_alice', { role: 'GROWER', sub: 'usr_bob' })).status).toBe(
      403,
    );
    // An ADMIN sees the matches whole.
    const admin = await p.http('POST', '/api/demand/match', { role: 'ADMIN', sub: 'usr_admin', body: {} });
    const ids = (admin.body.data.matches as { consumerId: string }[]).map((m) => m.consumerId);
    expect(ids).toContain('usr_alice');
    const exact = (admin.body.data.matches as { distanceKm: number }[]).some((m) => m.distanceKm % 5 !== 0);
    expect(exact).toBe(true);
  });

  it('refuses a signal over fewer than five households (too-few-households), with none of their figures', async () => {
    for (const [sub, region] of [
      // 50 m around Alice: her household alone; then both neighbours.
      ['usr_bob', { latitude: ALICE_HOME.latitude, longitude: ALICE_HOME.longitude, radiusKm: 0.05 }],
      ['usr_carol', { latitude: ALICE_HOME.latitude, longitude: ALICE_HOME.longitude, radiusKm: 1 }],
      ['usr_bob', { country: 'AT', city: 'Wien' }],
    ] as const) {
      const res = await p.http('POST', '/api/demand/signal', {
        role: 'GROWER',
        sub,
        body: { region, from: '2027-06-07', horizonWeeks: 1 },
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: [{ field: 'body/region', reason: 'too-few-households', minimum: 5 }],
      });
      expect(res.body.data).toBeNull();
      expect(JSON.stringify(res.body)).not.toContain('7.25');
    }
  });

  it('answers a signal once five settled households are in the region, with noisy figures of what they want', async () => {
    for (const sub of ['usr_n1', 'usr_n2', 'usr_n3']) {
      await p.http('POST', '/api/demand/preferences', {
        role: 'USER',
        sub,
        body: { location: CAROL_HOME, householdSize: 1, radiusKm: 25, items: tomatoes(1) },
      });
    }
    // Alice alone also asks for basil.
    await p.http('POST', '/api/demand/preferences', {
      role: 'USER',
      sub: 'usr_alice',
      body: {
        location: ALICE_HOME,
        householdSize: 2,
        radiusKm: 25,
        items: [...tomatoes(7.25), { crop: 'basil', quantityPerWeek: 4, unit: 'bunch' }],
      },
    });
    const ask = () =>
      p.http('POST', '/api/demand/signal', {
        role: 'GROWER',
        sub: 'usr_bob',
        body: { region: { country: 'AT', city: 'Wien' }, from: '2027-06-07', horizonWeeks: 1 },
      });
    // Households just saved do not count yet (they could be accounts made to pad the region).
    expect((await ask()).status).toBe(400);
    await settleHouseholds(p, 'usr_alice', 'usr_carol', 'usr_n1', 'usr_n2', 'usr_n3');
    const res = await ask();
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ consumers: 5 });
    // Tomato: 7.25 kg clipped to 2, 3 kg to 2, and 3 × 1 kg: 7 kg a week before noise, never the exact 13.25.
    expect(JSON.stringify(res.body.data)).not.toContain('13.25');
    for (const c of res.body.data.crops) expect(c.consumers).toBeGreaterThanOrEqual(5);
    // Asked again in the same week, the figures are the same: the noise cannot be averaged away.
    expect((await ask()).body.data.crops).toEqual(res.body.data.crops);
  });
});
