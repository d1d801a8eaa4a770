import { service as chainMiner } from '@rootline/chain-miner';
import { startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import { service as plants } from '@rootline/plants';
import { plantInput } from '@rootline/testing';
import { service as transparency } from '@rootline/transparency';
import { service as transport } from '@rootline/transport';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const AMSTERDAM = { latitude: 52.3676, longitude: 4.9041, city: 'Amsterdam', country: 'NL' };
const UTRECHT = { latitude: 52.0907, longitude: 5.1214, city: 'Utrecht', country: 'NL' };
const ADA = { id: 'usr_analyticsada1', name: 'Ada Grower' };
const BEN = { id: 'usr_analyticsben1', name: 'Ben Grower' };
const MAY = 'from=2026-05-01&to=2026-05-31';

interface Row {
  period: string;
  key: string | null;
  [figure: string]: unknown;
}

describe('analytics over HTTP on NATS and PostgreSQL, fed by the domain events', () => {
  let p: TestPlatform;
  let ada: string;
  let ben: string;
  let admin: string;
  let plantId: string;
  let distributionId: string;

  beforeAll(async () => {
    p = await startTestPlatform([chainMiner, plants, transport, transparency], { CHAIN_DIFFICULTY: '8' });
    ada = await p.token('USER', ADA.id, ADA.name);
    ben = await p.token('USER', BEN.id, BEN.name);
    admin = await p.token('ADMIN', 'usr_analyticsadm1');
  });
  afterAll(async () => p?.stop());

  const get = (url: string, token = ada) => p.http('GET', `/api/analytics${url}`, { token });
  const journey = (kind: string, body: Record<string, unknown>, token = ada) =>
    p.http('POST', `/api/transport/${kind}`, { token, body: { handler: ADA, to: AMSTERDAM, ...body } });

  it('counts plants registered through the API by species and privacy level', async () => {
    const bodies = [
      plantInput({ commonName: 'Tomato', scientificName: 'Solanum lycopersicum', privacyLevel: 'city', owner: ADA }),
      plantInput({ commonName: 'Tomato', scientificName: 'Solanum lycopersicum', privacyLevel: 'city', owner: ADA }),
      plantInput({ commonName: 'Basil', scientificName: 'Ocimum basilicum', privacyLevel: 'exact', owner: ADA }),
    ];
    for (const body of bodies) {
      const res = await p.http('POST', '/api/plants/register', { token: ada, body });
      expect(res.status, JSON.stringify(res.body.error)).toBe(201);
      plantId ??= res.body.data.id;
    }

    const bySpecies = async () => {
      const res = await get('/plants?by=species');
      return Object.fromEntries((res.body.data.series as Row[]).map((r) => [r.key, r.registered]));
    };
    await expect.poll(bySpecies, { timeout: 10_000 }).toEqual({ 'Ocimum basilicum': 1, 'Solanum lycopersicum': 2 });

    const byPrivacy = await get('/plants?by=privacyLevel&groupBy=month');
    expect(byPrivacy.status).toBe(200);
    expect(byPrivacy.body.data).toMatchObject({ groupBy: 'month', by: 'privacyLevel', totals: { registered: 3 } });
    expect(byPrivacy.body.data.series.map((r: Row) => [r.key, r.registered])).toEqual([
      ['city', 2],
      ['exact', 1],
    ]);
    // Default range: the 30 days ending today.
    const today = new Date().toISOString().slice(0, 10);
    expect(byPrivacy.body.data.to).toBe(today);

    const overview = await get('/overview');
    expect(overview.body.data.totals).toMatchObject({ plantsRegistered: 3, transportEvents: 0 });
  });

  it('moves the transport and sustainability figures with each journey event, and a correction replaces its event', async () => {
    const distribution = await journey('distribution', {
      plantId,
      eventTime: '2026-05-04T09:30:00+02:00',
      from: UTRECHT,
      transportMode: 'diesel-van',
      massKg: 4,
    });
    expect(distribution.status, JSON.stringify(distribution.body.error)).toBe(201);
    distributionId = distribution.body.data.id;
    const kg = distribution.body.data.kgCo2e as number;
    expect(kg).toBeGreaterThan(8); // about 35 km at 0.25 kg CO2e per van-km
    const saving = await journey('seed-saving', {
      plantId,
      seedLotId: 'lot_analytics-a',
      eventTime: '2026-05-06T09:30:00+02:00',
      quantity: { value: 12, unit: 'g' },
    });
    expect(saving.status).toBe(201);

    const byMode = async () => {
      const res = await get(`/transport?${MAY}&by=mode`);
      return (res.body.data.series as Row[]).map((r) => [r.period, r.key, r.events]);
    };
    await expect.poll(byMode, { timeout: 10_000 }).toEqual([
      ['2026-05-04', 'diesel-van', 1],
      ['2026-05-06', 'none', 1],
    ]);
    const weekly = await get(`/transport?${MAY}&groupBy=week&by=kind`);
    // 4 May 2026 is a Monday: both events fall in its week.
    expect(weekly.body.data.series.map((r: Row) => [r.period, r.key])).toEqual([
      ['2026-05-04', 'distribution'],
      ['2026-05-04', 'seed-saving'],
    ]);
    expect(weekly.body.data.totals.kgCo2e).toBeCloseTo(kg, 5);

    const mine = await get(`/sustainability?${MAY}&userId=${ADA.id}`);
    expect(mine.status).toBe(200);
    expect(mine.body.data.user).toMatchObject({
      userId: ADA.id,
      totals: { events: 2, seedSavingEvents: 1, seedSharingEvents: 0 },
    });
    expect(mine.body.data.user.byMode[0]).toMatchObject({ mode: 'diesel-van', events: 1 });
    expect(mine.body.data.network.totals.kgCo2e).toBeCloseTo(kg, 5);
    expect(mine.body.data.topUsers).toBeNull();

    // A correction: the van trip was a bicycle ride. The corrected event leaves the figures.
    const fixed = await journey('distribution', {
      plantId,
      eventTime: '2026-05-04T09:30:00+02:00',
      from: UTRECHT,
      transportMode: 'bicycle',
      massKg: 4,
      corrects: distributionId,
    });
    expect(fixed.status, JSON.stringify(fixed.body.error)).toBe(201);
    await expect.poll(byMode, { timeout: 10_000 }).toEqual([
      ['2026-05-04', 'bicycle', 1],
      ['2026-05-06', 'none', 1],
    ]);
    const after = await get(`/sustainability?${MAY}`, admin);
    expect(after.body.data.network.totals).toMatchObject({ events: 2, kgCo2e: 0 });
    expect(after.body.data.topUsers).toEqual([
      { userId: ADA.id, events: 2, distanceKm: expect.any(Number), kgCo2e: 0 },
    ]);
  });

  it('gives a user’s own figures only to that user or an ADMIN', async () => {
    const other = await get(`/sustainability?${MAY}&userId=${ADA.id}`, ben);
    expect(other.status).toBe(403);
    expect(other.body).toMatchObject({ success: false, data: null, error: { code: 'FORBIDDEN' } });
    const byAdmin = await get(`/sustainability?${MAY}&userId=${ADA.id}`, admin);
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.data.user.totals.events).toBe(2);
    expect((await p.http('GET', '/api/analytics/overview')).status).toBe(401);
  });

  it('exports a dataset as a CSV or JSON file', async () => {
    const csv = await get(`/export?dataset=transport&${MAY}&by=mode`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe(
      'attachment; filename="rootline-transport-2026-05-01-2026-05-31.csv"',
    );
    expect(csv.headers.get('cache-control')).toBe('no-store');
    expect(csv.headers.get('x-total-count')).toBe('2');
    const lines = (csv.body as string).trim().split('\n');
    expect(lines[0]).toBe('period,key,events,distanceKm,kgCo2e');
    expect(lines.slice(1).map((l) => l.split(',').slice(0, 3).join(','))).toEqual([
      '2026-05-04,bicycle,1',
      '2026-05-06,none,1',
    ]);

    const json = await get(`/export?dataset=sustainability&format=json&${MAY}&groupBy=month`);
    expect(json.status).toBe(200);
    // The same rule as every export: a download of one JSON array of rows, outside the envelope.
    expect(json.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(json.headers.get('content-disposition')).toBe(
      'attachment; filename="rootline-sustainability-2026-05-01-2026-05-31.json"',
    );
    expect(json.headers.get('cache-control')).toBe('no-store');
    expect(json.body).toEqual([
      {
        period: '2026-05-01',
        events: 2,
        distanceKm: expect.any(Number),
        kgCo2e: expect.any(Number),
        seedSavingEvents: 1,
        seedSharingEvents: 0,
      },
    ]);

    const plantsCsv = await get('/export?dataset=plants&by=species');
    expect(plantsCsv.body).toContain('Solanum lycopersicum,2');
  });

  it('documents every route, with an example answer and the export as a file', async () => {
    const doc = (await p.app.inject({ url: '/api/openapi.json' })).json();
    for (const name of ['overview', 'plants', 'transport', 'farms', 'sustainability']) {
      const op = doc.paths[`/api/analytics/${name}`].get;
      expect(op.tags, name).toEqual(['Analytics']);
      const data = op.responses['200'].content['application/json'].schema.properties.data;
      expect(data.examples?.[0], name).toMatchObject({ from: expect.any(String), to: expect.any(String) });
    }
    const exp = doc.paths['/api/analytics/export'].get;
    // Documented as a download: both media types, the Content-Disposition header, and the rule in the text.
    expect(Object.keys(exp.responses['200'].content).sort()).toEqual(['application/json', 'text/csv']);
    expect(exp.responses['200'].content['application/json'].schema.type).toBe('array');
    expect(exp.responses['200'].headers).toHaveProperty('Content-Disposition');
    expect(exp.description).toContain('Exports are downloads');
    const events = doc.paths['/api/transparency/export'].get;
    expect(Object.keys(events.responses['200'].content).sort()).toEqual([
      'application/json',
      'application/ld+json',
      'text/csv',
    ]);
    expect(events.responses['200'].headers).toHaveProperty('Content-Disposition');
    expect(events.description).toContain('Exports are downloads');
    expect(exp.parameters.map((x: { name: string }) => x.name)).toEqual(
      expect.arrayContaining(['dataset', 'format', 'from', 'to', 'groupBy', 'by']),
    );
  });

  it('refuses bad parameters with a clear 400', async () => {
    const cases: [string, string][] = [
      ['/plants?from=2026-11-24&to=2026-11-01', 'from'],
      ['/transport?from=2025-01-01&to=2026-05-31', 'from'],
      ['/overview?to=2026-02-30', 'to'],
      ['/export?dataset=transport&by=crop', 'by'],
    ];
    for (const [url, field] of cases) {
      const res = await get(url);
      expect(res.status, url).toBe(400);
      expect(res.body).toMatchObject({ success: false, data: null, error: { code: 'VALIDATION_ERROR' } });
      expect(res.body.error.details, url).toMatchObject({ field });
    }
    for (const url of [
      '/overview?groupBy=year',
      '/plants?by=owner',
      '/farms?from=yesterday',
      '/export?dataset=people',
      '/export?dataset=plants&format=xlsx',
      '/sustainability?userId=ada',
    ]) {
      const res = await get(url);
      expect(res.status, url).toBe(400);
      expect(res.body.error.code, url).toBe('VALIDATION_ERROR');
    }
  });
});
