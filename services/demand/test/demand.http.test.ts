import type { Role } from '@rootline/contracts';
import { recordDemandHistory } from '@rootline/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cellDistanceKm, distanceBandKm } from '../src/domain/location-precision.js';
import { outboxAbout, settleHouseholds, startDemandPlatform, type TestPlatform } from './support.js';

const AMSTERDAM = { latitude: 52.37, longitude: 4.89, city: 'Amsterdam', country: 'NL' };

const preferences = (items: object[], location = AMSTERDAM) => ({ location, householdSize: 2, radiusKm: 20, items });

async function outboxSubjects(p: TestPlatform, like: string): Promise<string[]> {
  return (await outboxAbout(p, like)).map((r) => r.subject);
}

describe('demand planning over HTTP', () => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startDemandPlatform();
    // Five households in Amsterdam (demand is shown over at least five) and one in Utrecht (35 km away).
    const save = (sub: string, items: object[], location = AMSTERDAM) =>
      p.http('POST', '/api/demand/preferences', { role: 'USER', sub, body: preferences(items, location) });
    expect(
      (await save('usr_h1', [{ crop: 'tomato', quantityPerWeek: 2, unit: 'kg', maxPrice: 400, currency: 'EUR' }]))
        .status,
    ).toBe(201);
    await save('usr_h2', [
      { crop: 'tomato', quantityPerWeek: 10, unit: 'piece' },
      { crop: 'lettuce', quantityPerWeek: 1, unit: 'piece', organicOnly: true },
    ]);
    await save('usr_h3', [{ crop: 'tomato', quantityPerWeek: 1, unit: 'kg', maxPrice: 200, currency: 'EUR' }]);
    await save('usr_h5', [{ crop: 'tomato', quantityPerWeek: 1, unit: 'kg' }]);
    await save('usr_h6', [{ crop: 'tomato', quantityPerWeek: 1, unit: 'kg' }]);
    await save('usr_h4', [{ crop: 'tomato', quantityPerWeek: 5, unit: 'kg' }], {
      latitude: 52.09,
      longitude: 5.12,
      city: 'Utrecht',
      country: 'NL',
    });
  });
  afterAll(async () => p?.stop());

  describe('preferences', () => {
    it('stores the caller’s own and replaces them on a second post', async () => {
      const body = preferences([{ crop: 'basil', quantityPerWeek: 1, unit: 'bunch' }]);
      const first = await p.http('POST', '/api/demand/preferences', { role: 'GROWER', sub: 'usr_pref', body });
      expect(first.status).toBe(201);
      expect(first.body.data).toMatchObject({
        consumerId: 'usr_pref',
        householdSize: 2,
        items: [
          { crop: 'basil', currency: 'EUR', organicOnly: false, seasons: ['spring', 'summer', 'autumn', 'winter'] },
        ],
      });
      const second = await p.http('POST', '/api/demand/preferences', {
        role: 'GROWER',
        sub: 'usr_pref',
        body: { ...body, householdSize: 4 },
      });
      expect(second.status).toBe(201);
      expect(second.body.data).toMatchObject({ id: first.body.data.id, householdSize: 4 });
      const mine = await p.http('GET', '/api/demand/preferences', { role: 'GROWER', sub: 'usr_pref' });
      expect(mine.body.data).toHaveLength(1);
      expect(mine.body.pagination).toEqual({ page: 1, limit: 20, total: 1, totalPages: 1 });
    });

    it.each([
      [preferences([{ crop: 'durian', quantityPerWeek: 1, unit: 'kg' }]), 'crop'],
      [preferences([{ crop: 'tomato', quantityPerWeek: 0, unit: 'kg' }]), 'quantityPerWeek'],
      [preferences([]), 'items'],
      [{ ...preferences([{ crop: 'tomato', quantityPerWeek: 1, unit: 'kg' }]), householdSize: 0 }, 'householdSize'],
      [preferences([{ crop: 'tomato', quantityPerWeek: 1, unit: 'crate' }]), 'unit'],
    ])('refuses an invalid body with 400 (%#)', async (body, field) => {
      const res = await p.http('POST', '/api/demand/preferences', { role: 'USER', sub: 'usr_bad', body });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, data: null, error: { code: 'VALIDATION_ERROR' } });
      expect(JSON.stringify(res.body.error.details)).toContain(field);
    });

    it('lets a consumer and an ADMIN read a consumer’s preferences, nobody else', async () => {
      expect((await p.http('GET', '/api/demand/preferences/usr_h1', { role: 'USER', sub: 'usr_h1' })).status).toBe(200);
      const other = await p.http('GET', '/api/demand/preferences/usr_h1', { role: 'GROWER', sub: 'usr_h2' });
      expect(other.status).toBe(403);
      expect(other.body.error.code).toBe('FORBIDDEN');
      const admin = await p.http('GET', '/api/demand/preferences/usr_h1', { role: 'ADMIN', sub: 'usr_admin' });
      expect(admin.body.data.items[0].crop).toBe('tomato');
      expect((await p.http('GET', '/api/demand/preferences/usr_none', { role: 'ADMIN', sub: 'a' })).status).toBe(404);
    });

    it('lists everyone’s for an ADMIN only', async () => {
      const all = await p.http('GET', '/api/demand/preferences?scope=all&limit=2', { role: 'ADMIN', sub: 'usr_admin' });
      expect(all.status).toBe(200);
      expect(all.body.data).toHaveLength(2);
      expect(all.body.pagination.total).toBeGreaterThanOrEqual(4);
      const refused = await p.http('GET', '/api/demand/preferences?scope=all', { role: 'FARM_MANAGER', sub: 'u' });
      expect(refused.status).toBe(403);
    });
  });

  describe('signals, supply and matches', () => {
    it('aggregates a region into weekly demand per crop, net of committed supply, and emits demand.signal', async () => {
      const supply = await p.http('POST', '/api/demand/supply', {
        role: 'GROWER',
        sub: 'usr_grower',
        body: {
          crop: 'tomato',
          quantity: 14,
          unit: 'kg',
          window: { from: '2027-01-04', to: '2027-01-17' },
          price: 300,
          currency: 'EUR',
          location: { latitude: 52.35, longitude: 4.9, city: 'Amsterdam', country: 'NL' },
        },
      });
      expect(supply.status).toBe(201);
      expect(supply.body.data).toMatchObject({ growerId: 'usr_grower', quantityKg: 14, matchedKg: 0 });
      expect(await outboxSubjects(p, supply.body.data.id)).toEqual(['evt.demand.supply.committed']);

      // Every household of the tests so far has lived where it is for long enough to count (domain/privacy.ts).
      await settleHouseholds(p);
      const res = await p.http('POST', '/api/demand/signal', {
        role: 'USER',
        sub: 'usr_planner',
        body: { region: { latitude: 52.37, longitude: 4.89, radiusKm: 10 }, from: '2027-01-06', horizonWeeks: 3 },
      });
      expect(res.status).toBe(201);
      const s = res.body.data;
      // Households within 10 km: the five of the setup and the basil household of the preferences tests (counted
      // exactly: where households live is public to the 5 km cell). What they want is published with noise
      // (domain/published-demand.ts), a crop only when at least five (noisy) households ask for it.
      expect(s).toMatchObject({ from: '2027-01-04', horizonWeeks: 3, consumers: 6, regionKey: null });
      for (const c of s.crops) expect(c.consumers).toBeGreaterThanOrEqual(5);
      const tomato = s.crops.find((c: { crop: string }) => c.crop === 'tomato');
      if (tomato) {
        // 7 kg of supply in each of the first two weeks, exact; the demand of the three winter weeks is one noisy
        // figure (one draw per season, so the weeks cannot be averaged), its gap the difference.
        expect(tomato.weeks.map((w: { supplyKg: number }) => w.supplyKg)).toEqual([7, 7, 0]);
        expect(new Set(tomato.weeks.map((w: { demandKg: number }) => w.demandKg)).size).toBe(1);
        for (const w of tomato.weeks) expect(w.gapKg).toBeCloseTo(Math.max(0, w.demandKg - w.supplyKg), 3);
        expect(tomato.supplyKg).toBe(14);
      }
      expect(await outboxSubjects(p, s.id)).toEqual(['evt.demand.signal.generated']);
      const stored = await p.database.db.execute(sql`select id from demand.signals where id = ${s.id}`);
      expect(stored).toHaveLength(1);
    });

    it('refuses a supply whose window runs backwards or is not a real date', async () => {
      const body = {
        crop: 'tomato',
        quantity: 1,
        unit: 'kg',
        window: { from: '2027-02-10', to: '2027-02-01' },
        price: 1,
        currency: 'EUR',
        location: AMSTERDAM,
      };
      const back = await p.http('POST', '/api/demand/supply', { role: 'GROWER', sub: 'g', body });
      expect(back.status).toBe(400);
      expect(back.body.error.details[0].field).toBe('body/window/to');
      const unreal = await p.http('POST', '/api/demand/supply', {
        role: 'GROWER',
        sub: 'g',
        body: { ...body, window: { from: '2027-02-30', to: '2027-03-01' } },
      });
      expect(unreal.status).toBe(400);
      expect(unreal.body.error.details[0].field).toBe('body/window/from');
    });

    it('matches a grower’s own supply by distance and price, once, and emits demand.match', async () => {
      const supply = await p.http('POST', '/api/demand/supply', {
        role: 'GROWER',
        sub: 'usr_matcher',
        body: {
          crop: 'tomato',
          quantity: 10,
          unit: 'kg',
          window: { from: '2027-06-07', to: '2027-06-13' },
          price: 350,
          currency: 'EUR',
          location: { latitude: 52.36, longitude: 4.9, country: 'NL' },
        },
      });
      const first = await p.http('POST', '/api/demand/match', {
        role: 'GROWER',
        sub: 'usr_matcher',
        body: { crop: 'tomato', maxDistanceKm: 20 },
      });
      expect(first.status).toBe(201);
      // h3 accepts at most 2 EUR/kg (too cheap for 3.50); h4 is 35 km away; h1 (2 kg), h2 (1.2 kg), h5 and h6
      // (1 kg each) qualify. The grower sees no consumer, and distances to 5 km.
      const mine = first.body.data.matches.filter((m: { supplyId: string }) => m.supplyId === supply.body.data.id);
      expect(mine.map((m: { quantityKg: number }) => m.quantityKg).sort()).toEqual([1, 1, 1.2, 2]);
      expect(mine.every((m: { consumerId: unknown; distanceKm: number }) => m.consumerId === null)).toBe(true);
      // Distances are between 5 km grid cells, shown to the grower as the 5 km band.
      const band = distanceBandKm(cellDistanceKm({ latitude: 52.36, longitude: 4.9 }, AMSTERDAM));
      expect(mine.every((m: { distanceKm: number }) => m.distanceKm === band)).toBe(true);
      const admin = await p.http('POST', '/api/demand/match', {
        role: 'ADMIN',
        sub: 'usr_admin',
        body: { crop: 'tomato', maxDistanceKm: 20 },
      });
      const seen = admin.body.data.matches.filter((m: { supplyId: string }) => m.supplyId === supply.body.data.id);
      expect(seen.map((m: { consumerId: string }) => m.consumerId).sort()).toEqual([
        'usr_h1',
        'usr_h2',
        'usr_h5',
        'usr_h6',
      ]);
      expect(first.body.data.created).toBe(4);
      expect(await outboxSubjects(p, mine[0].id)).toEqual(['evt.demand.match.created']);
      const again = await p.http('POST', '/api/demand/match', {
        role: 'GROWER',
        sub: 'usr_matcher',
        body: { crop: 'tomato', maxDistanceKm: 20 },
      });
      expect(again.status).toBe(201);
      expect(again.body.data.created).toBe(0);
      expect(again.body.data.matches).toEqual(first.body.data.matches);
      const rows = await p.database.db.execute(
        sql`select matched_kg from demand.supplies where id = ${supply.body.data.id}`,
      );
      expect(rows).toEqual([{ matched_kg: 5.2 }]);
    });

    it('lists the caller’s commitments newest first, and each one’s matches to its grower and an ADMIN only', async () => {
      const later = await p.http('POST', '/api/demand/supply', {
        role: 'GROWER',
        sub: 'usr_matcher',
        body: {
          crop: 'kale',
          quantity: 3,
          unit: 'bunch',
          window: { from: '2027-10-04', to: '2027-10-31' },
          price: 250,
          currency: 'EUR',
          location: { latitude: 52.36, longitude: 4.9, country: 'NL' },
        },
      });
      expect(later.status).toBe(201);
      const mine = await p.http('GET', '/api/demand/supply', { role: 'GROWER', sub: 'usr_matcher' });
      expect(mine.status).toBe(200);
      expect(mine.body.data.map((s: { crop: string }) => s.crop)).toEqual(['kale', 'tomato']);
      expect(mine.body.data[1]).toMatchObject({ growerId: 'usr_matcher', quantityKg: 10, matchedKg: 5.2 });
      expect(mine.body.pagination).toEqual({ page: 1, limit: 20, total: 2, totalPages: 1 });
      const second = await p.http('GET', '/api/demand/supply?limit=1&page=2', { role: 'GROWER', sub: 'usr_matcher' });
      expect(second.body.data.map((s: { crop: string }) => s.crop)).toEqual(['tomato']);
      expect(second.body.pagination).toEqual({ page: 2, limit: 1, total: 2, totalPages: 2 });
      const tomato = second.body.data[0].id as string;

      // Someone else's list holds none of them; every grower's is for an ADMIN only.
      const other = await p.http('GET', '/api/demand/supply', { role: 'GROWER', sub: 'usr_other_grower' });
      expect(other.body.data).toEqual([]);
      expect((await p.http('GET', '/api/demand/supply?scope=all', { role: 'GROWER', sub: 'usr_matcher' })).status).toBe(
        403,
      );
      const all = await p.http('GET', '/api/demand/supply?scope=all&limit=100', { role: 'ADMIN', sub: 'usr_admin' });
      expect(all.body.data.map((s: { id: string }) => s.id)).toContain(tomato);
      expect(all.body.pagination.total).toBeGreaterThan(2);

      // The grower sees its matches nearest first, without households and with distances to 5 km.
      const url = `/api/demand/supply/${tomato}/matches`;
      const matches = await p.http('GET', url, { role: 'GROWER', sub: 'usr_matcher' });
      expect(matches.status).toBe(200);
      expect(matches.body.pagination.total).toBe(4);
      expect(matches.body.data.map((m: { quantityKg: number }) => m.quantityKg).sort()).toEqual([1, 1, 1.2, 2]);
      const band = distanceBandKm(cellDistanceKm({ latitude: 52.36, longitude: 4.9 }, AMSTERDAM));
      for (const m of matches.body.data) {
        expect(m).toMatchObject({ supplyId: tomato, growerId: 'usr_matcher', consumerId: null, distanceKm: band });
      }
      const admin = await p.http('GET', url, { role: 'ADMIN', sub: 'usr_admin' });
      const exact = admin.body.data.map((m: { distanceKm: number }) => m.distanceKm);
      expect(exact).toEqual([...exact].sort((a, b) => a - b));
      expect(admin.body.data.map((m: { consumerId: string }) => m.consumerId).sort()).toEqual([
        'usr_h1',
        'usr_h2',
        'usr_h5',
        'usr_h6',
      ]);
      expect((await p.http('GET', `${url}?limit=3`, { role: 'ADMIN', sub: 'usr_admin' })).body.data).toHaveLength(3);
      const kale = await p.http('GET', `/api/demand/supply/${later.body.data.id}/matches`, {
        role: 'GROWER',
        sub: 'usr_matcher',
      });
      expect(kale.body).toMatchObject({ data: [], pagination: { total: 0 } });
    });

    it('answers 404 for the matches of a commitment to anyone but its grower and an ADMIN, as for one that does not exist', async () => {
      const mine = await p.http('GET', '/api/demand/supply', { role: 'GROWER', sub: 'usr_matcher' });
      const tomato = mine.body.data.find((s: { crop: string }) => s.crop === 'tomato').id as string;
      // Another grower, another role, and a household matched to it.
      for (const [role, sub] of [
        ['GROWER', 'usr_other_grower'],
        ['FARM_MANAGER', 'usr_other_manager'],
        ['USER', 'usr_h1'],
      ] as const) {
        const res = await p.http('GET', `/api/demand/supply/${tomato}/matches`, { role, sub });
        expect(res.status, `${role} ${sub}`).toBe(404);
        expect(res.body).toMatchObject({ success: false, data: null, error: { code: 'NOT_FOUND' } });
        expect(JSON.stringify(res.body)).not.toContain('usr_h');
      }
      const missing = await p.http('GET', '/api/demand/supply/sup_00000000000000000000000000/matches', {
        role: 'ADMIN',
        sub: 'usr_admin',
      });
      expect(missing.status).toBe(404);
      const bad = await p.http('GET', '/api/demand/supply/not-an-id/matches', { role: 'GROWER', sub: 'usr_matcher' });
      expect(bad.status).toBe(400);
    });

    describe.each<Role>(['USER', 'GROWER', 'FARM_MANAGER'])('ownership as %s', (role) => {
      it('commits supply as itself and matches only its own supply', async () => {
        const sub = `usr_supplier_${role.toLowerCase()}`;
        const res = await p.http('POST', '/api/demand/supply', {
          role,
          sub,
          body: {
            crop: 'lettuce',
            quantity: 5,
            unit: 'piece',
            window: { from: '2027-09-06', to: '2027-09-12' },
            price: 100,
            currency: 'EUR',
            organic: true,
            location: AMSTERDAM,
          },
        });
        expect(res.body.data).toMatchObject({ growerId: sub, quantityKg: 2 });
        const matched = await p.http('POST', '/api/demand/match', { role, sub, body: { crop: 'lettuce' } });
        expect(matched.status).toBe(201);
        expect(matched.body.data.matches.every((m: { growerId: string }) => m.growerId === sub)).toBe(true);
      });
    });
  });

  describe('recommendations and forecasts', () => {
    it('ranks crops for a grower with expected yield, revenue and the reasoning', async () => {
      const res = await p.http(
        'GET',
        '/api/demand/recommendations?lat=52.36&lon=4.9&areaM2=20&method=greenhouse&startDate=2027-04-05&radius=15&limit=3',
        { role: 'GROWER', sub: 'usr_grower' },
      );
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(3);
      expect(res.body.data.map((r: { rank: number }) => r.rank)).toEqual([1, 2, 3]);
      const all = await p.http(
        'GET',
        '/api/demand/recommendations?lat=52.36&lon=4.9&areaM2=20&method=greenhouse&startDate=2027-04-05&radius=15&limit=18',
        { role: 'GROWER', sub: 'usr_grower' },
      );
      const tomato = all.body.data.find((r: { crop: string }) => r.crop === 'tomato');
      expect(tomato).toMatchObject({ suitable: true, daysToHarvest: 75, expectedYieldKg: 240 });
      expect(tomato.harvestDate).toBe('2027-06-19');
      expect(tomato.reasons.join(' ')).toContain('reference price 3.5 EUR/kg');
      expect(tomato.reasonCodes).toContainEqual({
        code: 'reference-price',
        params: { pricePerKg: 3.5, currency: 'EUR' },
      });
      expect(tomato.reasonCodes).toHaveLength(tomato.reasons.length);
      // The demand it is ranked by is the published one (noisy, by cell), the same a signal over the same
      // region and harvest weeks shows: nothing finer comes out of recommendations.
      const signal = await p.http('POST', '/api/demand/signal', {
        role: 'GROWER',
        sub: 'usr_grower',
        body: { region: { latitude: 52.36, longitude: 4.9, radiusKm: 15 }, from: '2027-06-19', horizonWeeks: 4 },
      });
      expect(signal.status).toBe(201);
      const published = signal.body.data.crops.find((c: { crop: string }) => c.crop === 'tomato');
      const wanted = Math.round((published?.demandKg ?? 0) * 10) / 10;
      expect(tomato.reasons.join(' ')).toContain(`(${wanted} kg wanted,`);
      const bad = await p.http(
        'GET',
        '/api/demand/recommendations?lat=52&lon=5&areaM2=20&method=rooftop&startDate=2027-04-05',
        { role: 'GROWER', sub: 'g' },
      );
      expect(bad.status).toBe(400);
    });

    it('recommends from a location alone: 10 m², open field, starting today', async () => {
      const res = await p.http('GET', '/api/demand/recommendations?lat=52.37&lon=4.89', { role: 'USER', sub: 'u' });
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(10);
      const today = new Date().toISOString().slice(0, 10);
      for (const r of res.body.data as { harvestDate: string; daysToHarvest: number; reasons: string[] }[]) {
        const sown = new Date(Date.parse(`${r.harvestDate}T00:00:00Z`) - r.daysToHarvest * 86_400_000);
        expect(sown.toISOString().slice(0, 10)).toBe(today);
      }
      const explicit = await p.http(
        'GET',
        `/api/demand/recommendations?lat=52.37&lon=4.89&areaM2=10&method=open-field&startDate=${today}`,
        { role: 'USER', sub: 'u' },
      );
      expect(explicit.body.data).toEqual(res.body.data);
    });

    it('forecasts from the history signals recorded, with intervals and the back-tested error', async () => {
      const none = await p.http('GET', '/api/demand/forecast?crop=tomato&region=NL/amsterdam', {
        role: 'USER',
        sub: 'u',
      });
      expect(none.status).toBe(404);
      // A signal for Amsterdam by name records its first week as history (the published, noisy figure).
      const sig = await p.http('POST', '/api/demand/signal', {
        role: 'USER',
        sub: 'usr_planner',
        body: { region: { country: 'nl', city: 'AMSTERDAM' }, from: '2027-03-01', horizonWeeks: 1 },
      });
      expect(sig.body.error).toBeNull();
      expect(sig.body).toMatchObject({ data: { regionKey: 'NL/amsterdam' } });
      const recorded = sig.body.data.crops.find((c: { crop: string }) => c.crop === 'tomato')?.weeks[0].demandKg;
      // One week of history: the naive forecast (that week carried on), with its interval.
      const short = await p.http('GET', '/api/demand/forecast?crop=tomato&region=NL/Amsterdam', {
        role: 'USER',
        sub: 'u',
      });
      if (recorded === undefined) {
        // Too few (noisy) askers for tomato to be published: nothing is recorded, so nothing is forecast.
        expect(short.status).toBe(404);
      } else {
        expect(short.status).toBe(200);
        const n = short.body.data;
        expect(n).toMatchObject({ method: 'naive', basedOnWeeks: 1, parameters: null });
        expect(n.forecast).toHaveLength(4);
        expect(n.forecast[0].demandKg).toBe(recorded);
        expect(n.forecast[3].pi95.upper).toBeGreaterThan(n.forecast[0].pi95.upper);
      }
      const never = await p.http('GET', '/api/demand/forecast?crop=kale&region=NL/amsterdam', {
        role: 'USER',
        sub: 'u',
      });
      expect(never.status).toBe(404);
      expect(never.body.error.code).toBe('NOT_FOUND');
      // Six weeks of history, as weekly signals over six publication weeks would have recorded them.
      const weekly = [2, 3, 4, 4, 6, 7];
      await recordDemandHistory(
        p.infra.pg.url,
        'tomato',
        'NL/amsterdam',
        weekly.map((kg, i) => ({
          weekStart: new Date(Date.UTC(2027, 2, 1 + 7 * i)).toISOString().slice(0, 10),
          demandKg: kg + 4.2,
        })),
      );
      const res = await p.http('GET', '/api/demand/forecast?crop=tomato&region=nl/AMSTERDAM&weeks=3', {
        role: 'USER',
        sub: 'u',
      });
      expect(res.status).toBe(200);
      const f = res.body.data;
      expect(f).toMatchObject({ region: 'NL/amsterdam', method: 'holt', basedOnWeeks: 6 });
      expect(f.history.map((h: { demandKg: number }) => h.demandKg)).toEqual(weekly.map((kg) => kg + 4.2));
      expect(f.history[0].weekStart).toBe('2027-03-01');
      expect(f.forecast.map((w: { weekStart: string }) => w.weekStart)).toEqual([
        '2027-04-12',
        '2027-04-19',
        '2027-04-26',
      ]);
      for (const w of f.forecast) {
        expect(w.pi95.lower).toBeLessThanOrEqual(w.pi80.lower);
        expect(w.pi80.lower).toBeLessThanOrEqual(w.demandKg);
        expect(w.pi95.upper).toBeGreaterThanOrEqual(w.pi80.upper);
      }
      expect(f.forecast[0].demandKg).toBeGreaterThan(8);
      expect(f.backtest.points).toBe(3);
      expect(f.backtest.mape).toBeGreaterThan(0);
      expect(f.backtest.mase).toBeGreaterThan(0);
    });
  });
});
