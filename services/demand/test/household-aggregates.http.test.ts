import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMAND_CAP_KG } from '../src/domain/published-demand.js';
import { settleHouseholds, startDemandPlatform, type TestPlatform } from './support.js';

// Alice lives alone in her part of Graz; the attacker's accounts live 200 m away.
const ALICE = { latitude: 47.0707, longitude: 15.4395, city: 'Graz', country: 'AT' };
const NEAR = { latitude: 47.0725, longitude: 15.4395, city: 'Graz', country: 'AT' };
const ALICE_KG = 7.25;
const PADDING = ['usr_pad1', 'usr_pad2', 'usr_pad3', 'usr_pad4'];
const PAD_KG = 1;
const region = (radiusKm: number) => ({ latitude: ALICE.latitude, longitude: ALICE.longitude, radiusKm });

describe('aggregates that throw-away accounts cannot open', () => {
  let p: TestPlatform;
  const save = (sub: string, location: typeof ALICE, kg: number) =>
    p.http('POST', '/api/demand/preferences', {
      role: 'USER',
      sub,
      body: { location, householdSize: 1, radiusKm: 10, items: [{ crop: 'tomato', quantityPerWeek: kg, unit: 'kg' }] },
    });
  const signal = (radiusKm: number, sub = 'usr_spy') =>
    p.http('POST', '/api/demand/signal', {
      role: 'GROWER',
      sub,
      body: { region: region(radiusKm), from: '2027-06-07', horizonWeeks: 1 },
    });
  /** What the attacker reads as Alice's weekly kilograms: the signal's tomato less what its own accounts asked. */
  const aliceAsRead = (res: { body: { data: { crops: { crop: string; weeks: { demandKg: number }[] }[] } } }) =>
    (res.body.data.crops.find((c) => c.crop === 'tomato')?.weeks[0]?.demandKg ?? 0) - PADDING.length * PAD_KG;

  beforeAll(async () => {
    p = await startDemandPlatform();
    expect((await save('usr_alice', ALICE, ALICE_KG)).status).toBe(201);
    await settleHouseholds(p, 'usr_alice');
  });
  afterAll(async () => p?.stop());

  it('signal floor padded with four throw-away accounts 200 m away gave the household’s exact quantity: fresh accounts do not count', async () => {
    for (const sub of PADDING) expect((await save(sub, NEAR, PAD_KG)).status).toBe(201);
    // As the radius grows, the answer stays a refusal: nothing flips at Alice's distance.
    for (const radiusKm of [0.05, 0.2, 1, 3, 10]) {
      const res = await signal(radiusKm);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: [{ field: 'body/region', reason: 'too-few-households', minimum: 5 }],
      });
      expect(JSON.stringify(res.body)).not.toContain(String(ALICE_KG));
    }
  });

  it('four settled accounts and three signals around a change give neither the household’s quantity nor its change', async () => {
    // The attacker waits until its four accounts count (as if they had lived there two weeks).
    await settleHouseholds(p, ...PADDING);
    const before = await signal(1);
    expect(before.status).toBe(201);
    expect(before.body.data.consumers).toBe(5);
    // Alice changes her order; the attacker asks again, twice, with other radii covering the same cell.
    expect((await save('usr_alice', ALICE, 1)).status).toBe(201);
    const after = await signal(2);
    const again = await signal(4, 'usr_spy2');
    for (const res of [after, again]) expect(res.status).toBe(201);
    const read = [before, after, again].map(aliceAsRead);
    // The figures are those of the week: the same before and after the change, so the change does not show…
    expect(new Set(read).size).toBe(1);
    expect(after.body.data.crops).toEqual(before.body.data.crops);
    // …and, noisy, they are not her quantity, neither as she stated it nor as clipped to the cap.
    const [seen] = read as [number];
    expect(Math.abs(seen - ALICE_KG)).toBeGreaterThan(0.05);
    expect(Math.abs(seen - DEMAND_CAP_KG)).toBeGreaterThan(0.05);
    expect(Math.abs(seen - 1)).toBeGreaterThan(0.05);
    expect(JSON.stringify([before.body, after.body, again.body])).not.toMatch(/"demandKg":(7\.25|11\.25|5)\b/);
  });
});
