import { plantInput } from '@rootline/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTransportPlatform, type TestPlatform } from './support.js';

const AMSTERDAM = { latitude: 52.3676, longitude: 4.9041, city: 'Amsterdam', country: 'NL' };
const UTRECHT = { latitude: 52.0907, longitude: 5.1214, city: 'Utrecht', country: 'NL' };
const ADA = { id: 'usr_ada', name: 'Ada Grower' };

interface Document {
  type: string;
  epcisBody: { queryResults: { resultsBody: { eventList: { eventTime: string; bizStep: string }[] } } };
}
const events = (body: unknown) => (body as Document).epcisBody.queryResults.resultsBody.eventList;

describe('EPCIS 2.0 named queries over HTTP on NATS and PostgreSQL', () => {
  let p: TestPlatform;
  let ada: string;
  let bo: string;

  beforeAll(async () => {
    p = await startTransportPlatform();
    ada = await p.token('GROWER', ADA.id, ADA.name);
    bo = await p.token('USER', 'usr_bo', 'Bo Other');
    const plant = await p.http('POST', '/api/plants/register', {
      token: ada,
      body: plantInput({ owner: ADA, location: AMSTERDAM }),
    });
    expect(plant.status, JSON.stringify(plant.body)).toBe(201);
    for (const day of ['01', '02', '03']) {
      const res = await p.http('POST', '/api/transport/distribution', {
        token: ada,
        body: {
          plantId: plant.body.data.id,
          eventTime: `2026-06-${day}T09:00:00+02:00`,
          handler: ADA,
          from: AMSTERDAM,
          to: UTRECHT,
          transportMode: 'cargo-bike',
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
  }, 120_000);
  afterAll(async () => p?.stop());

  const query = { EQ_bizStep: 'shipping', GE_eventTime: '2026-06-02T00:00:00+02:00' };

  it('stores a named query of the account: 201 with Location, then lists, reads and runs it in pages', async () => {
    const created = await p.http('POST', '/api/epcis/queries', { token: ada, body: { name: 'since-june-2', query } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.headers.get('location')).toBe('/api/epcis/queries/since-june-2');
    expect(created.body).toMatchObject({ name: 'since-june-2', query });

    const list = await p.http('GET', '/api/epcis/queries', { token: ada });
    expect(list.status).toBe(200);
    expect((list.body as { name: string }[]).map((q) => q.name)).toEqual(['since-june-2']);
    const one = await p.http('GET', '/api/epcis/queries/since-june-2', { token: ada });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ name: 'since-june-2', query });

    // Run: the stored filter holds (two of the three shipments), a page at a time.
    const first = await p.http('GET', '/api/epcis/queries/since-june-2/events?perPage=1', { token: ada });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.headers.get('content-type')).toContain('application/ld+json');
    expect((first.body as Document).type).toBe('EPCISQueryDocument');
    expect(events(first.body).map((e) => e.eventTime)).toEqual(['2026-06-02T09:00:00+02:00']);
    const link = first.headers.get('link') ?? '';
    const next = /<([^>]+)>; rel="next"/.exec(link)?.[1];
    expect(next).toBeDefined();
    const nextUrl = new URL(next as string);
    expect(nextUrl.pathname).toBe('/api/epcis/queries/since-june-2/events');
    const second = await p.http('GET', `${nextUrl.pathname}${nextUrl.search}`, { token: ada });
    expect(second.status).toBe(200);
    expect(events(second.body).map((e) => e.eventTime)).toEqual(['2026-06-03T09:00:00+02:00']);
    expect(second.headers.get('link')).toBeNull();

    // The same as GET /events with those parameters.
    const direct = await p.http(
      'GET',
      `/api/epcis/events?EQ_bizStep=shipping&GE_eventTime=${encodeURIComponent(query.GE_eventTime)}`,
    );
    expect(events(direct.body)).toEqual(
      events((await p.http('GET', '/api/epcis/queries/since-june-2/events', { token: ada })).body),
    );
  });

  it('refuses a query GET /events would refuse (400 problem) and a name the account already uses (409)', async () => {
    const bad = await p.http('POST', '/api/epcis/queries', {
      token: ada,
      body: { name: 'bad', query: { EQ_bizLocation: 'Amsterdam' } },
    });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toContain('application/problem+json');
    expect(bad.body).toMatchObject({
      type: 'epcisException:QueryParameterException',
      status: 400,
      details: { field: 'EQ_bizLocation', reason: 'not-a-geo-uri' },
    });
    const unknown = await p.http('POST', '/api/epcis/queries', {
      token: ada,
      body: { name: 'paged', query: { perPage: 5 } },
    });
    expect(unknown.status).toBe(400);
    expect((await p.http('GET', '/api/epcis/queries/bad', { token: ada })).status).toBe(404);

    const body = { name: 'twice', query: { EQ_bizStep: 'receiving' } };
    expect((await p.http('POST', '/api/epcis/queries', { token: ada, body })).status).toBe(201);
    const again = await p.http('POST', '/api/epcis/queries', { token: ada, body });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ status: 409, code: 'CONFLICT' });
    // Another account may use the same name: names are each account's own.
    expect((await p.http('POST', '/api/epcis/queries', { token: bo, body })).status).toBe(201);
  });

  it('shows another account none of them (404), and deletes them', async () => {
    await p.http('POST', '/api/epcis/queries', { token: ada, body: { name: 'mine', query } });
    const peek = await p.http('GET', '/api/epcis/queries/mine', { token: bo });
    expect(peek.status).toBe(404);
    expect(peek.body).toMatchObject({ type: 'epcisException:NoSuchResourceException' });
    expect((await p.http('GET', '/api/epcis/queries/mine/events', { token: bo })).status).toBe(404);
    expect((await p.http('DELETE', '/api/epcis/queries/mine', { token: bo })).status).toBe(404);
    const bos = await p.http('GET', '/api/epcis/queries', { token: bo });
    expect((bos.body as { name: string }[]).map((q) => q.name)).toEqual(['twice']);
    expect((await p.http('GET', '/api/epcis/queries')).status).toBe(401);

    expect((await p.http('DELETE', '/api/epcis/queries/mine', { token: ada })).status).toBe(204);
    expect((await p.http('GET', '/api/epcis/queries/mine', { token: ada })).status).toBe(404);
    expect((await p.http('DELETE', '/api/epcis/queries/mine', { token: ada })).status).toBe(404);
  });
});
