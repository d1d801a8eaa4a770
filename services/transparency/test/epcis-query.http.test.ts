import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { service as chainMiner } from '@rootline/chain-miner';
import { epcisEventId, plantEpc } from '@rootline/domain';
import { startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import { service as plants } from '@rootline/plants';
import { plantInput } from '@rootline/testing';
import { service as transport } from '@rootline/transport';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { service as transparency } from '../src/service.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const EPCIS_SCHEMA = JSON.parse(
  readFileSync(new URL('./fixtures/vendor/gs1-epcis/EPCIS-JSON-Schema.json', import.meta.url), 'utf8'),
);
const BASE = 'https://rootline.example';
const PREFIX = '9520000';
const AMSTERDAM = { latitude: 52.3676, longitude: 4.9041, city: 'Amsterdam', country: 'NL' };
const LEIDEN = { latitude: 52.1601, longitude: 4.497, city: 'Leiden', country: 'NL' };
const HANDLER = { id: 'usr_grower', name: 'Ada Grower' };

interface EpcisEvent {
  eventID: string;
  eventTime: string;
  action: string;
  bizStep: string;
  disposition: string;
  epcList: string[];
  readPoint?: { id: string };
  bizLocation?: { id: string };
  [key: string]: unknown;
}

describe('the EPCIS 2.0 query interface over journey events', () => {
  let p: TestPlatform;
  let grower: string;
  let plantA: string;
  let plantB: string;
  const ids: Record<string, string> = {};
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  const validate = ajv.compile(EPCIS_SCHEMA);

  /** GETs an EPCIS route anonymously; a 200 must be a query document valid under GS1's schema. */
  async function query(url: string) {
    const res = await p.http('GET', url);
    if (res.status === 200 && url.includes('/events')) {
      expect(res.headers.get('content-type')).toBe('application/ld+json; charset=utf-8');
      expect(validate(res.body), JSON.stringify(validate.errors)).toBe(true);
    }
    return res;
  }
  const eventsOf = (body: unknown) =>
    (body as { epcisBody: { queryResults: { resultsBody: { eventList: EpcisEvent[] } } } }).epcisBody.queryResults
      .resultsBody.eventList;
  const kinds = (body: unknown) => eventsOf(body).map((e) => e['rootline:kind']);

  beforeAll(async () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    p = await startTestPlatform([chainMiner, plants, transport, transparency], {
      CHAIN_DIFFICULTY: '8',
      PUBLIC_URL: BASE,
      AUDIT_SIGNING_KEY: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    });
    grower = await p.token('USER', HANDLER.id, HANDLER.name);
    const register = async (commonName: string) =>
      (
        await p.http('POST', '/api/plants/register', {
          token: grower,
          body: plantInput({ commonName, owner: HANDLER, location: AMSTERDAM, privacyLevel: 'city' }),
        })
      ).body.data.id as string;
    plantA = await register('Cherry tomato');
    plantB = await register('Basil');
    const post = async (name: string, kind: string, body: object) => {
      const res = await p.http('POST', `/api/transport/${kind}`, {
        token: grower,
        body: { handler: HANDLER, ...body },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      ids[name] = res.body.data.id;
    };
    await post('planting', 'planting', {
      plantId: plantA,
      eventTime: '2026-05-01T09:00:00+02:00',
      to: AMSTERDAM,
      privacyLevel: 'city',
      notes: 'a private note',
    });
    await post('growing', 'growing', {
      plantId: plantA,
      eventTime: '2026-06-01T09:00:00+02:00',
      from: AMSTERDAM,
      to: LEIDEN,
      transportMode: 'bicycle',
      privacyLevel: 'city',
    });
    await post('growingFix', 'growing', {
      plantId: plantA,
      eventTime: '2026-06-01T10:00:00+02:00',
      from: AMSTERDAM,
      to: AMSTERDAM,
      privacyLevel: 'city',
      corrects: ids.growing,
    });
    await post('harvest', 'harvest', {
      plantId: plantA,
      eventTime: '2026-07-01T09:00:00+02:00',
      to: AMSTERDAM,
      quantity: { value: 2.5, unit: 'kg' },
      privacyLevel: 'city',
    });
    await post('distribution', 'distribution', {
      plantId: plantA,
      eventTime: '2026-08-01T09:00:00+02:00',
      from: AMSTERDAM,
      to: LEIDEN,
      transportMode: 'electric-van',
      massKg: 20,
      recipient: { id: 'shop_leiden', name: 'Leiden market' },
      privacyLevel: 'city',
    });
    await post('hiddenPlanting', 'planting', {
      plantId: plantB,
      eventTime: '2026-05-15T09:00:00Z',
      to: LEIDEN,
      privacyLevel: 'hidden',
    });
  }, 120_000);
  afterAll(async () => {
    await p?.stop();
  });

  it('answers every journey event as a valid EPCIS query document, with stable urn:uuid ids and no private text', async () => {
    const res = await query('/api/epcis/events');
    expect(res.status).toBe(200);
    expect(res.headers.get('gs1-epcis-version')).toBe('2.0.0');
    expect(res.body).toMatchObject({
      '@context': ['https://ref.gs1.org/standards/epcis/epcis-context.jsonld', { rootline: `${BASE}/ns/epcis#` }],
      type: 'EPCISQueryDocument',
      epcisBody: { queryResults: { queryName: 'SimpleEventQuery' } },
    });
    const events = eventsOf(res.body);
    expect(events.map((e) => e.eventID).sort()).toEqual(Object.values(ids).map(epcisEventId).sort());
    expect(eventsOf((await query('/api/epcis/events')).body).map((e) => e.eventID)).toEqual(
      events.map((e) => e.eventID),
    );
    const text = JSON.stringify(res.body);
    expect(text).not.toContain('a private note');
    expect(text).not.toContain('Ada Grower');
    expect(text).not.toContain('Leiden market');
    // GS1's schema is not a formality: an event without its time fails it.
    const broken = structuredClone(res.body) as unknown;
    delete (eventsOf(broken)[0] as Partial<EpcisEvent>).eventTime;
    expect(validate(broken)).toBe(false);
  });

  it('pairs actions with business steps as CBV does, and places events at their privacy level', async () => {
    const events = eventsOf((await query('/api/epcis/events')).body);
    const by = (name: string) => events.find((e) => e.eventID === epcisEventId(ids[name] as string)) as EpcisEvent;
    const epcA = plantEpc(plantA, BASE, PREFIX);
    expect(epcA).toMatch(new RegExp(`^${BASE}/8004/${PREFIX}[A-Za-z0-9_-]{22}$`));
    expect(by('planting')).toMatchObject({ action: 'ADD', bizStep: 'commissioning', epcList: [epcA] });
    expect(by('harvest')).toMatchObject({
      action: 'ADD',
      bizStep: 'creating_class_instance',
      disposition: 'active',
      epcList: [],
      quantityList: [{ epcClass: `urn:rootline:produce:${plantA}`, quantity: 2.5, uom: 'KGM' }],
      'rootline:harvestedFrom': epcA,
    });
    const journey = (await p.http('GET', `/api/transport/journey/${plantA}`)).body.data as {
      id: string;
      from: { latitude: number; longitude: number } | null;
      to: { latitude: number; longitude: number } | null;
    }[];
    const stored = journey.find((e) => e.id === ids.distribution);
    const from = `geo:${stored?.from?.latitude},${stored?.from?.longitude}`;
    const to = `geo:${stored?.to?.latitude},${stored?.to?.longitude}`;
    // City level: the cell's centre the journey shows, never the point given.
    expect(from).not.toBe(`geo:${AMSTERDAM.latitude},${AMSTERDAM.longitude}`);
    expect(by('distribution')).toMatchObject({
      action: 'OBSERVE',
      bizStep: 'shipping',
      disposition: 'in_transit',
      readPoint: { id: from },
      sourceList: [
        { type: 'location', source: from },
        { type: 'possessing_party', source: 'urn:rootline:party:usr_grower' },
      ],
      destinationList: [
        { type: 'location', destination: to },
        { type: 'possessing_party', destination: 'urn:rootline:party:shop_leiden' },
      ],
    });
    expect(by('distribution').bizLocation).toBeUndefined();
    expect(by('hiddenPlanting').readPoint).toBeUndefined();
    expect(by('hiddenPlanting').bizLocation).toBeUndefined();
    // A correction: the corrected event is declared in error, naming the event that corrects it.
    expect(by('growing').errorDeclaration).toMatchObject({
      reason: 'incorrect_data',
      correctiveEventIDs: [epcisEventId(ids.growingFix as string)],
    });
    expect(by('growingFix')['rootline:corrects']).toBe(epcisEventId(ids.growing as string));
  });

  it('links every event to its ledger proof bundle', async () => {
    const events = eventsOf((await query('/api/epcis/events')).body);
    for (const e of events) expect(e['rootline:proofBundle']).toMatch(/\/api\/transparency\/proofs\/transactions\//);
    const link = new URL(events[0]?.['rootline:proofBundle'] as string);
    expect(link.origin).toBe(BASE);
    const bundle = await p.http('GET', link.pathname);
    expect(bundle.status).toBe(200);
    expect(bundle.body.data.transaction.id).toBe(link.pathname.split('/').pop());
  });

  it('filters by event type, time, business step, disposition, EPC and business location', async () => {
    expect(kinds((await query('/api/epcis/events?eventType=AggregationEvent')).body)).toEqual([]);
    expect(kinds((await query('/api/epcis/events?eventType=ObjectEvent|AggregationEvent')).body)).toHaveLength(6);
    expect(kinds((await query('/api/epcis/events?EQ_bizStep=shipping')).body)).toEqual(['distribution']);
    expect(
      kinds((await query('/api/epcis/events?EQ_bizStep=https://ref.gs1.org/cbv/BizStep-commissioning')).body),
    ).toEqual(['planting', 'planting']);
    expect(
      kinds((await query('/api/epcis/events?EQ_disposition=active&EQ_bizStep=creating_class_instance')).body),
    ).toEqual(['harvest']);
    const window = '/api/epcis/events?GE_eventTime=2026-06-01T07:00:00Z&LT_eventTime=2026-07-01T08:00:00.000Z';
    expect(kinds((await query(window)).body)).toEqual(['growing', 'growing', 'harvest']);
    const epcA = encodeURIComponent(plantEpc(plantA, BASE, PREFIX));
    // Any host: the EPC is recognised by its GIAI, whatever address the query comes through.
    const elsewhere = encodeURIComponent(plantEpc(plantA, 'https://other.example', PREFIX));
    expect(kinds((await query(`/api/epcis/events?MATCH_epc=${elsewhere}`)).body)).toEqual([
      'planting',
      'growing',
      'growing',
      'distribution',
    ]);
    expect(kinds((await query(`/api/epcis/events?MATCH_anyEPC=urn:rootline:plant:${plantB}|${epcA}`)).body)).toEqual([
      'planting',
      'planting',
      'growing',
      'growing',
      'distribution',
    ]);
    expect(kinds((await query('/api/epcis/events?MATCH_epc=urn:epc:id:sgtin:0614141.107346.2018')).body)).toEqual([]);
    const planting = eventsOf((await query('/api/epcis/events?EQ_bizStep=commissioning')).body).find(
      (e) => e.eventID === epcisEventId(ids.planting as string),
    );
    const place = planting?.bizLocation?.id as string;
    expect(place).toMatch(/^geo:/);
    // Movements have no business location: only the planting and the harvest were at that place.
    expect(kinds((await query(`/api/epcis/events?EQ_bizLocation=${place}`)).body)).toEqual(['planting', 'harvest']);
  });

  it('pages with perPage and the Link header’s nextPageToken, each event once', async () => {
    const seen: string[] = [];
    let url: string | null = '/api/epcis/events?perPage=2&EQ_disposition=active|in_transit|in_progress';
    let pages = 0;
    while (url) {
      const res = await query(url);
      expect(res.status).toBe(200);
      seen.push(...eventsOf(res.body).map((e) => e.eventID));
      pages += 1;
      const link = res.headers.get('link');
      if (!link) break;
      const m = /^<([^>]+)>; rel="next"$/.exec(link);
      expect(m, link).not.toBeNull();
      const next = new URL(m?.[1] as string);
      expect(next.origin).toBe(BASE);
      expect(next.searchParams.get('perPage')).toBe('2');
      expect(next.searchParams.get('EQ_disposition')).toBe('active|in_transit|in_progress');
      url = `${next.pathname}${next.search}`;
    }
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(6);
  });

  it('answers an EPC’s events at /epcs/{epc}/events, and 404 for an EPC it does not name', async () => {
    const epcA = encodeURIComponent(plantEpc(plantA, BASE, PREFIX));
    const res = await query(`/api/epcis/epcs/${epcA}/events?EQ_bizStep=shipping|transporting`);
    expect(res.status).toBe(200);
    expect(kinds(res.body)).toEqual(['growing', 'growing', 'distribution']);
    const b = await query(`/api/epcis/epcs/${encodeURIComponent(`urn:rootline:plant:${plantB}`)}/events`);
    expect(kinds(b.body)).toEqual(['planting']);
    expect(kinds((await query(`/api/epcis/epcs/${plantB}/events`)).body)).toEqual(['planting']);
    for (const epc of [
      plantEpc('plt_01HZX3K6Q2W8N4B7T5R9V0C1MD', BASE, PREFIX),
      'urn:epc:id:sgtin:0614141.107346.2018',
    ]) {
      const missing = await query(`/api/epcis/epcs/${encodeURIComponent(epc)}/events`);
      expect(missing.status).toBe(404);
      expect(missing.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
      expect(missing.body).toMatchObject({ type: 'epcisException:NoSuchResourceException', status: 404 });
    }
  });

  it('refuses what it cannot answer with the standard’s RFC 7807 problems', async () => {
    for (const url of [
      '/api/epcis/events?EQ_bizLocation=Amsterdam',
      '/api/epcis/events?perPage=5000',
      '/api/epcis/events?EQ_readPoint=geo:1,2',
      '/api/epcis/events?nextPageToken=bm90LWEtdG9rZW4',
      '/api/epcis/events?GE_eventTime=yesterday',
    ]) {
      const res = await query(url);
      expect(res.status, url).toBe(400);
      expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
      expect(res.body, url).toMatchObject({
        type: 'epcisException:QueryParameterException',
        title: expect.any(String),
        status: 400,
        detail: expect.any(String),
        code: 'VALIDATION_ERROR',
      });
    }
  });

  it('lists its event types', async () => {
    const res = await query('/api/epcis/eventTypes');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'Collection', member: ['ObjectEvent'] });
  });

  it('resolves a plant’s Digital Link to its public page, or by link type to its EPCIS events', async () => {
    const path = new URL(plantEpc(plantA, BASE, PREFIX)).pathname;
    const res = await p.http('GET', path);
    expect(res.status).toBe(307);
    expect(res.headers.get('location')).toBe(`${BASE}/api/transport/trace/${plantA}`);
    expect((await p.http('GET', new URL(res.headers.get('location') as string).pathname)).status).toBe(200);
    const epcis = await p.http('GET', `${path}?linkType=gs1:epcis`);
    expect(epcis.status).toBe(307);
    const events = await query(new URL(epcis.headers.get('location') as string).pathname);
    expect(events.status).toBe(200);
    expect(kinds(events.body)).toEqual(['planting', 'growing', 'growing', 'distribution']);
    expect((await p.http('GET', `${path}?linkType=gs1:pip`)).headers.get('location')).toBe(`${BASE}/plants/${plantA}`);
    expect((await p.http('GET', path.replace(PREFIX, '9520001'))).status).toBe(404);
  });

  it('serves the rootline vocabulary as a JSON-LD context at /ns/epcis', async () => {
    const res = await p.http('GET', '/ns/epcis');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/ld+json; charset=utf-8');
    const context = (res.body as { '@context': Record<string, { '@id': string }> })['@context'];
    for (const term of ['kind', 'transportMode', 'distanceKm', 'kgCo2e', 'corrects', 'harvestedFrom', 'proofBundle']) {
      expect(context[term]?.['@id']).toBe(`${BASE}/ns/epcis#${term}`);
    }
  });
});
