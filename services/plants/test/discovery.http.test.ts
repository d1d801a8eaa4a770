import { plantInput } from '@rootline/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlantsPlatform, type TestPlatform } from './support.js';

const R = 6371.0088;
/** An independent haversine, to check the distances the API reports. */
function km(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const rad = Math.PI / 180;
  const h =
    Math.sin(((b.latitude - a.latitude) * rad) / 2) ** 2 +
    Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(((b.longitude - a.longitude) * rad) / 2) ** 2;
  return 2 * R * Math.asin(Math.sqrt(h));
}
/** The point `d` km due north of a point. */
const north = (p: { latitude: number; longitude: number }, d: number) => ({
  latitude: p.latitude + d / (R * (Math.PI / 180)),
  longitude: p.longitude,
});

const utrecht = { latitude: 52.0907, longitude: 5.1214 };

describe('plant discovery over HTTP on NATS and PostgreSQL', () => {
  let p: TestPlatform;
  let grower: string;
  let reader: string;
  const ids: Record<string, string> = {};
  const reg = async (key: string, body: unknown) => {
    const res = await p.http('POST', '/api/plants/register', { token: grower, body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    ids[key] = res.body.data.id;
    return res.body.data.id as string;
  };

  beforeAll(async () => {
    p = await startPlantsPlatform();
    // Registers plants of several owners (searched by owner below): an ADMIN acting for them.
    grower = await p.token('ADMIN', 'usr_grower');
    reader = await p.token('USER', 'usr_reader');
    const owner = (id: string, name: string) => ({ id, name });
    await Promise.all([
      reg(
        'at1',
        plantInput({ commonName: 'Tomato', location: { ...north(utrecht, 1), city: 'Utrecht', country: 'NL' } }),
      ),
      reg(
        'at10',
        plantInput({ commonName: 'Basil', location: { ...north(utrecht, 10), city: 'Hilversum', country: 'NL' } }),
      ),
      reg('at30', plantInput({ commonName: 'Mint', location: { ...north(utrecht, 30), country: 'NL' } })),
      reg('at49', plantInput({ commonName: 'Thyme', location: { ...north(utrecht, 49), country: 'nl' } })),
      reg('at51', plantInput({ commonName: 'Sage', location: { ...north(utrecht, 51), country: 'NL' } })),
      reg('at200', plantInput({ commonName: 'Lavender', location: { ...north(utrecht, 200), country: 'DE' } })),
      reg(
        'hidden',
        plantInput({
          commonName: 'Secret Tomato',
          location: { ...north(utrecht, 2), city: 'Utrecht' },
          privacyLevel: 'hidden',
        }),
      ),
      reg(
        'creme',
        plantInput({
          commonName: 'Crème de Menthe',
          scientificName: 'Mentha × piperita',
          location: { latitude: 48.85, longitude: 2.35, city: 'Paris', country: 'FR' },
          owner: owner('usr_elodie', 'Élodie Dupré'),
        }),
      ),
      reg(
        'zurich',
        plantInput({
          commonName: 'Edelweiss',
          scientificName: 'Leontopodium nivale',
          location: { latitude: 47.37, longitude: 8.54, city: 'Zürich', country: 'CH' },
          owner: owner('usr_menthe', 'Menthe Gardens'),
        }),
      ),
      reg(
        'spearmint',
        plantInput({
          commonName: 'Spearmint',
          scientificName: 'Mentha spicata',
          location: { latitude: 51.5, longitude: -0.12, city: 'London', country: 'GB' },
        }),
      ),
      reg(
        'menthe',
        plantInput({
          commonName: 'menthe',
          scientificName: undefined,
          location: { latitude: 45.76, longitude: 4.83, city: 'Lyon', country: 'FR' },
        }),
      ),
    ]);
  });
  afterAll(async () => p?.stop());

  describe('GET /api/plants/nearby', () => {
    it('lists plants within the default 50 km, nearest first, with their haversine distance', async () => {
      const res = await p.http('GET', `/api/plants/nearby?lat=${utrecht.latitude}&lon=${utrecht.longitude}`, {
        token: reader,
      });
      expect(res.status).toBe(200);
      expect(res.body.data.map((x: { id: string }) => x.id)).toEqual([ids.at1, ids.at10, ids.at30, ids.at49]);
      for (const item of res.body.data) {
        expect(item.distanceKm).toBeCloseTo(km(utrecht, item.location), 6);
      }
      expect(res.body.data.map((x: { distanceKm: number }) => Math.round(x.distanceKm))).toEqual([1, 10, 30, 49]);
      expect(res.body.data[0]).toMatchObject({
        commonName: 'Tomato',
        generation: 0,
        block: { txId: expect.any(String) },
      });
      expect(res.body.pagination).toEqual({ page: 1, limit: 20, total: 4, totalPages: 1, totalIsEstimate: false });
    });

    it('takes a radius in km and pages the results', async () => {
      const wide = await p.http(
        'GET',
        `/api/plants/nearby?lat=${utrecht.latitude}&lon=${utrecht.longitude}&radius=250`,
        { token: reader },
      );
      expect(wide.body.data.map((x: { id: string }) => x.id)).toEqual([
        ids.at1,
        ids.at10,
        ids.at30,
        ids.at49,
        ids.at51,
        ids.at200,
      ]);
      const page2 = await p.http(
        'GET',
        `/api/plants/nearby?lat=${utrecht.latitude}&lon=${utrecht.longitude}&radius=250&limit=4&page=2`,
        { token: reader },
      );
      expect(page2.body.data.map((x: { id: string }) => x.id)).toEqual([ids.at51, ids.at200]);
      expect(page2.body.pagination).toEqual({ page: 2, limit: 4, total: 6, totalPages: 2, totalIsEstimate: false });
      const narrow = await p.http(
        'GET',
        `/api/plants/nearby?lat=${utrecht.latitude}&lon=${utrecht.longitude}&radius=5`,
        { token: reader },
      );
      expect(narrow.body.data.map((x: { id: string }) => x.id)).toEqual([ids.at1]);
    });

    it('never lists a hidden plant, even at its own point', async () => {
      const res = await p.http(
        'GET',
        `/api/plants/nearby?lat=${north(utrecht, 2).latitude}&lon=${utrecht.longitude}&radius=500&limit=100`,
        { token: reader },
      );
      expect(res.body.data.map((x: { id: string }) => x.id)).not.toContain(ids.hidden);
      expect(res.body.data.every((x: { location: unknown }) => x.location !== null)).toBe(true);
    });

    it.each([
      ['lat missing', `lon=5`, 'querystring/lat'],
      ['lon missing', `lat=52`, 'querystring/lon'],
      ['lat above 90', `lat=90.1&lon=5`, 'querystring/lat'],
      ['lat below -90', `lat=-91&lon=5`, 'querystring/lat'],
      ['lon above 180', `lat=52&lon=181`, 'querystring/lon'],
      ['lon not a number', `lat=52&lon=east`, 'querystring/lon'],
      ['radius above the maximum', `lat=52&lon=5&radius=501`, 'querystring/radius'],
      ['radius zero', `lat=52&lon=5&radius=0`, 'querystring/radius'],
      ['limit above the maximum', `lat=52&lon=5&limit=101`, 'querystring/limit'],
      ['page zero', `lat=52&lon=5&page=0`, 'querystring/page'],
    ])('refuses %s with 400 VALIDATION_ERROR naming the parameter', async (_n, query, field) => {
      const res = await p.http('GET', `/api/plants/nearby?${query}`, { token: reader });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    });

    it('answers a page far past the end with an empty page, and refuses one past the stated maximum', async () => {
      for (const url of [
        `/api/plants/nearby?lat=${utrecht.latitude}&lon=${utrecht.longitude}&page=1000000`,
        '/api/plants/search?q=nl&page=1000000',
      ]) {
        const res = await p.http('GET', url, { token: reader });
        expect(res.status, url).toBe(200);
        expect(res.body.data).toEqual([]);
        expect(res.body.pagination.total).toBeGreaterThan(0);
      }
      const over = await p.http('GET', '/api/plants/search?q=nl&page=100000000000000000000', { token: reader });
      expect(over.status).toBe(400);
      expect(over.body.error.message).toBe('querystring/page must be <= 1000000');
    });

    it('answers a visitor without an account, with locations after their privacy level', async () => {
      const res = await p.http('GET', '/api/plants/nearby?lat=52&lon=5');
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
    });
  });

  describe('GET /api/plants/search', () => {
    const search = (query: string) => p.http('GET', `/api/plants/search?${query}`, { token: reader });
    const found = (res: { body: { data: { id: string }[] } }) => res.body.data.map((x) => x.id);

    it('ignores case and accents, in the query and in the data', async () => {
      expect(found(await search('q=CREME'))).toEqual([ids.creme]);
      expect(found(await search('q=cr%C3%A8me%20de'))).toEqual([ids.creme]);
      expect(found(await search(`q=${encodeURIComponent('zurich')}&type=location`))).toEqual([ids.zurich]);
      expect(found(await search(`q=${encodeURIComponent('ZÜRICH')}&type=location`))).toEqual([ids.zurich]);
      expect(found(await search('q=elodie&type=owner'))).toEqual([ids.creme]);
    });

    it('orders by relevance: exact, prefix, word, substring; and says what matched', async () => {
      const res = await search('q=menthe');
      expect(res.status).toBe(200);
      // exact species "menthe"; owner "Menthe Gardens" starts with it; "Crème de Menthe" has it as a later word.
      expect(found(res)).toEqual([ids.menthe, ids.zurich, ids.creme]);
      expect(res.body.data.map((x: { match: unknown }) => x.match)).toEqual([
        { field: 'species', kind: 'exact' },
        { field: 'owner', kind: 'prefix' },
        { field: 'species', kind: 'word' },
      ]);
      const mentha = await search('q=mentha&type=species');
      expect(found(mentha).sort()).toEqual([ids.creme, ids.spearmint].sort());
      expect(mentha.body.data.every((x: { match: { kind: string } }) => x.match.kind === 'word')).toBe(true);
      const sub = await search('q=pear&type=species');
      expect(found(sub)).toEqual([ids.spearmint]);
      expect(sub.body.data[0].match).toEqual({ field: 'species', kind: 'substring' });
    });

    it('searches only the field named by type', async () => {
      expect(found(await search('q=menthe&type=species'))).toEqual([ids.menthe, ids.creme]);
      expect(found(await search('q=menthe&type=owner'))).toEqual([ids.zurich]);
      expect(found(await search('q=menthe&type=location'))).toEqual([]);
      expect(found(await search('q=fr&type=location')).sort()).toEqual([ids.creme, ids.menthe].sort());
    });

    it('does not find a hidden plant by the location it did not disclose', async () => {
      expect(found(await search('q=secret&type=species'))).toEqual([ids.hidden]);
      expect(found(await search('q=utrecht&type=location'))).toEqual([ids.at1]);
    });

    it('pages with the spec’s pagination object', async () => {
      const all = await search('q=nl&type=location&limit=100');
      expect(all.body.pagination).toEqual({ page: 1, limit: 100, total: 5, totalPages: 1, totalIsEstimate: false });
      const page = await search('q=nl&type=location&limit=2&page=3');
      expect(page.body.pagination).toEqual({ page: 3, limit: 2, total: 5, totalPages: 3, totalIsEstimate: false });
      expect(found(page)).toEqual(found(all).slice(4));
      const defaults = await search('q=nl');
      expect(defaults.body.pagination).toMatchObject({ page: 1, limit: 20 });
    });

    it.each([
      ['q missing', 'type=species', 'q'],
      ['q empty', 'q=', 'q'],
      ['q without letters or digits', 'q=%25%25', 'q'],
      ['unknown type', 'q=mint&type=colour', 'type'],
      ['limit above the maximum', 'q=mint&limit=101', 'limit'],
    ])('refuses %s with 400 VALIDATION_ERROR naming the parameter', async (_n, query, field) => {
      const res = await search(query);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(`${res.body.error.message} ${JSON.stringify(res.body.error.details ?? '')}`).toContain(field);
    });
  });

  describe('GET /api/plants/network', () => {
    it('counts plants, active growers and countries, with the ledger’s length and difficulty', async () => {
      const res = await p.http('GET', '/api/plants/network', { token: reader });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        totalPlants: 11,
        // usr_test, usr_elodie and usr_menthe own plants.
        activeGrowers: 3,
        // NL (twice spelt), DE, FR, CH, GB; the hidden plant discloses no country.
        countriesRepresented: 5,
        chainLength: expect.any(Number),
        difficulty: 8,
      });
      // Genesis and at least one block holding the registrations.
      expect(res.body.data.chainLength).toBeGreaterThanOrEqual(2);
    });
  });

  it('lists the newest plants of the network to anyone, newest first, page by page', async () => {
    const first = await p.http('GET', '/api/plants/recent?limit=3');
    expect(first.status).toBe(200);
    expect(first.body.pagination).toMatchObject({ page: 1, limit: 3 });
    expect(first.body.pagination.total).toBeGreaterThanOrEqual(6);
    const second = await p.http('GET', '/api/plants/recent?limit=3&page=2', { token: reader });
    expect(second.status).toBe(200);
    const items = [...first.body.data, ...second.body.data] as { id: string; registeredAt: string }[];
    expect(items).toHaveLength(6);
    expect(new Set(items.map((i) => i.id)).size).toBe(6);
    const times = items.map((i) => i.registeredAt);
    expect([...times].sort().reverse()).toEqual(times);
    // The newest registration comes first.
    const fresh = await reg('fresh', plantInput({ commonName: 'Newest fern' }));
    const now = await p.http('GET', '/api/plants/recent?limit=1');
    expect(now.body.data[0].id).toBe(fresh);
  });

  it("lists one's own plants newest first, page by page, and refuses another's list", async () => {
    const owner = await p.token('USER', 'usr_test');
    const first = await p.http('GET', '/api/plants/owned/usr_test?limit=2', { token: owner });
    expect(first.status).toBe(200);
    expect(first.body.pagination).toMatchObject({ page: 1, limit: 2 });
    expect(first.body.pagination.total).toBeGreaterThanOrEqual(6);
    const second = await p.http('GET', '/api/plants/owned/usr_test?limit=2&page=2', { token: owner });
    const items = [...first.body.data, ...second.body.data] as {
      id: string;
      owner: { id: string };
      registeredAt: string;
    }[];
    expect(items).toHaveLength(4);
    expect(new Set(items.map((i) => i.id)).size).toBe(4);
    for (const item of items) expect(item.owner.id).toBe('usr_test');
    const times = items.map((i) => i.registeredAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect((await p.http('GET', '/api/plants/owned/usr_test', { token: reader })).status).toBe(403);
    const none = await p.http('GET', '/api/plants/owned/usr_reader', { token: reader });
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ data: [], pagination: { total: 0 } });
  });
});
