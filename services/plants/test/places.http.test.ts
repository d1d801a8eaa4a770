import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { service as chainMiner } from '@rootline/chain-miner';
import { startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import { service as plants } from '@rootline/plants';
import { plantInput, startTestSocks, type TestSocks } from '@rootline/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// A local server answering as Nominatim's /search documents (format=jsonv2, addressdetails=1), reached through a
// real SOCKS5 proxy: the geocoder's requests are checked for their User-Agent, parameters and spacing.
interface Seen {
  url: URL;
  headers: IncomingHttpHeaders;
  at: number;
}

describe('places over HTTP on NATS and PostgreSQL', () => {
  let p: TestPlatform;
  let nominatim: Server;
  let socks: TestSocks;
  let down = false;
  const extraBuses: { close(): Promise<void> }[] = [];
  const seen: Seen[] = [];
  let reader: string;
  let grower: string;

  beforeAll(async () => {
    nominatim = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://nominatim.test');
      seen.push({ url, headers: req.headers, at: Date.now() });
      if (down) return void res.writeHead(503).end('{"error":"overloaded"}');
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify([
          {
            place_id: 1,
            licence: 'Data © OpenStreetMap contributors, ODbL 1.0.',
            osm_type: 'way',
            lat: '52.0894',
            lon: '5.1103',
            category: 'building',
            type: 'yes',
            name: 'Stadhuis',
            display_name: 'Stadhuis, Korte Minrebroederstraat 2, Utrecht, Nederland',
            address: { city: 'Utrecht', country: 'Nederland', country_code: 'nl' },
          },
        ]),
      );
    });
    await new Promise<void>((r) => nominatim.listen(0, '127.0.0.1', () => r()));
    socks = await startTestSocks();
    p = await startTestPlatform([chainMiner, plants], {
      CHAIN_DIFFICULTY: '8',
      GEOCODER_URL: `http://127.0.0.1:${(nominatim.address() as AddressInfo).port}`,
      GEOCODER_USER_AGENT: 'Rootline test installation (ops@rootline.example)',
      GEOCODER_EMAIL: 'ops@rootline.example',
      SOCKS_PROXY_URL: socks.url,
    });
    reader = await p.token('USER', 'usr_reader');
    grower = await p.token('ADMIN', 'usr_grower');
  });
  afterAll(async () => {
    await p?.stop();
    for (const b of extraBuses) await b.close();
    await socks?.stop();
    await new Promise<void>((r) => nominatim?.close(() => r()));
  });

  const geocode = (q: string, extra = '') =>
    p.http('GET', `/api/geocode?q=${encodeURIComponent(q)}${extra}`, { token: reader });

  it('answers visitors from the gazetteer alone, sending nothing to the geocoder', async () => {
    const before = seen.length;
    const res = await p.http('GET', '/api/geocode?q=Lyon');
    expect(res.status).toBe(200);
    expect(res.body.data[0]).toMatchObject({ source: 'gazetteer', name: 'Lyon', country: 'FR' });
    expect(res.body.data.every((x: { source: string }) => x.source === 'gazetteer')).toBe(true);
    // A credential that is not valid is a visitor too.
    const bad = await p.http('GET', '/api/geocode?q=Lyon', { token: 'not-a-token' });
    expect(bad.status).toBe(200);
    expect(seen.length).toBe(before);
  });

  it('answers the geocoder first, then the gazetteer, with accents and typos forgiven', async () => {
    const res = await geocode('Zurich');
    expect(res.status).toBe(200);
    expect(res.body.data[0]).toMatchObject({ source: 'geocoder', name: 'Stadhuis', country: 'NL' });
    expect(res.body.data.find((x: { source: string }) => x.source === 'gazetteer')).toMatchObject({
      name: 'Zürich',
      country: 'CH',
      countryName: 'Switzerland',
      match: 'exact',
    });
    expect(res.body.pagination).toMatchObject({ page: 1 });

    const typo = await geocode('Amsterdma');
    expect(typo.body.data.find((x: { source: string }) => x.source === 'gazetteer')).toMatchObject({
      name: 'Amsterdam',
      match: 'typo',
    });
  });

  it('names itself, asks in the documented form, through the proxy, at most once a second, and caches', async () => {
    const before = seen.length;
    await Promise.all([geocode('Utrecht'), geocode('Leiden'), geocode('Delft')]);
    await geocode('Utrecht'); // cached: nothing sent
    const sent = seen.slice(before);
    expect(sent).toHaveLength(3);
    for (const s of sent) {
      expect(s.headers['user-agent']).toBe('Rootline test installation (ops@rootline.example)');
      expect(s.url.pathname).toBe('/search');
      expect(s.url.searchParams.get('format')).toBe('jsonv2');
      expect(s.url.searchParams.get('addressdetails')).toBe('1');
      expect(s.url.searchParams.get('email')).toBe('ops@rootline.example');
    }
    expect(sent.map((s) => s.url.searchParams.get('q')).sort()).toEqual(['Delft', 'Leiden', 'Utrecht']);
    for (let i = 1; i < sent.length; i++) expect(sent[i]!.at - sent[i - 1]!.at).toBeGreaterThanOrEqual(990);
    expect(socks.connects.filter((c) => c.startsWith('127.0.0.1:')).length).toBeGreaterThan(0);
  });

  it('answers from the gazetteer alone while the geocoder is down', async () => {
    down = true;
    try {
      const res = await geocode('Malmo');
      expect(res.status).toBe(200);
      expect(res.body.data[0]).toMatchObject({ source: 'gazetteer', name: 'Malmö', country: 'SE' });
    } finally {
      down = false;
    }
  });

  describe('a plant registered with coordinates alone', () => {
    const register = (body: unknown) => p.http('POST', '/api/plants/register', { token: grower, body });

    it('shows its country and place in its answers, search and the network statistics', async () => {
      const at = { latitude: -1.2864, longitude: 36.8172 }; // Nairobi
      const created = await register(
        plantInput({ commonName: 'Sukuma', location: at, owner: { id: 'usr_k', name: 'K' } }),
      );
      expect(created.status).toBe(201);
      const got = await p.http('GET', `/api/plants/${created.body.data.id}`, { token: reader });
      expect(got.body.data.location).toEqual({ ...at, city: 'Nairobi', country: 'KE' });

      const byCountryName = await p.http('GET', '/api/plants/search?q=Kenya&type=location', { token: reader });
      expect(byCountryName.body.data.map((x: { id: string }) => x.id)).toContain(created.body.data.id);
      const byCity = await p.http('GET', '/api/plants/search?q=nairobi&type=location', { token: reader });
      expect(byCity.body.data.map((x: { id: string }) => x.id)).toContain(created.body.data.id);

      const before = (await p.http('GET', '/api/plants/network', { token: reader })).body.data.countriesRepresented;
      await register(plantInput({ commonName: 'Yerba', location: { latitude: -34.6, longitude: -58.38 } }));
      const after = (await p.http('GET', '/api/plants/network', { token: reader })).body.data.countriesRepresented;
      expect(after).toBe(before + 1);
    });

    it('names the place of the exact point at the city and country levels, never a smaller one', async () => {
      // Geneva, near the French border: the ~100 km cell's centre may lie in France; the country is still CH.
      const at = { latitude: 46.2044, longitude: 6.1432 };
      const country = await register(plantInput({ location: at, privacyLevel: 'country' }));
      const city = await register(plantInput({ location: at, privacyLevel: 'city' }));
      const read = async (id: string) => (await p.http('GET', `/api/plants/${id}`, { token: reader })).body.data;
      const c = await read(country.body.data.id);
      expect(c.location.country).toBe('CH');
      expect(c.location.city).toBeUndefined();
      expect(c.location.latitude).not.toBe(at.latitude);
      const t = await read(city.body.data.id);
      expect(t.location).toMatchObject({ country: 'CH', city: 'Genève' });
      expect(t.location.latitude).not.toBe(at.latitude);
    });

    it('fills places of plants stored without them when the service starts', async () => {
      const created = await register(plantInput({ location: { latitude: 35.6895, longitude: 139.6917 } }));
      const id = created.body.data.id;
      await p.database.db.execute(sql`update plants.plants set city = null, country = null where id = ${id}`);
      const running = p.services.get('plants')!;
      await running.stop();
      const { startService, createLogger } = await import('@rootline/host');
      const { createNatsBus } = await import('@rootline/bus');
      const bus = await createNatsBus({
        url: p.infra.nats.url,
        name: 'plants-again',
        log: { info() {}, warn() {}, error() {} },
      });
      const again = await startService(plants, {
        bus,
        database: p.database,
        log: createLogger('test', 'silent'),
        env: {},
      });
      p.services.set('plants', again);
      extraBuses.push(bus);
      await expect
        .poll(async () => (await p.http('GET', `/api/plants/${id}`, { token: reader })).body.data?.location, {
          timeout: 20_000,
        })
        .toMatchObject({ city: 'Tokyo', country: 'JP' });
    });
  });
});
