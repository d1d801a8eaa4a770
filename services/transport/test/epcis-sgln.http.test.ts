import { plantEpc } from '@rootline/domain';
import { plantInput } from '@rootline/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTransportPlatform, type TestPlatform } from './support.js';

const BASE = 'https://rootline.example';
const PREFIX = '9520000';
const FARM = { latitude: 52.3676, longitude: 4.9041, city: 'Amsterdam', country: 'NL' };
const FARM_SGLN = 'urn:epc:id:sgln:9520000.00001.0';
const BARN_SGLN = 'urn:epc:id:sgln:9520000.00002.0';
const PARTNER_SGLN = 'urn:epc:id:sgln:0614141.07346.1234';
const ADA = { id: 'usr_ada', name: 'Ada Grower' };

interface Ev {
  eventID: string;
  epcList: string[];
  readPoint?: { id: string };
  bizLocation?: { id: string };
}
const eventsOf = (body: unknown) =>
  (body as { epcisBody: { queryResults: { resultsBody: { eventList: Ev[] } } } }).epcisBody.queryResults.resultsBody
    .eventList;

describe('SGLNs of places in EPCIS answers and capture', () => {
  let p: TestPlatform;
  let ada: string;
  const plants: string[] = [];

  beforeAll(async () => {
    p = await startTransportPlatform({
      PUBLIC_URL: BASE,
      EPCIS_SGLNS: `${FARM_SGLN}=${FARM.latitude},${FARM.longitude} ${BARN_SGLN}=52.0907,5.1214`,
    });
    ada = await p.token('GROWER', ADA.id, ADA.name);
    for (let i = 0; i < 3; i++) {
      const plant = await p.http('POST', '/api/plants/register', {
        token: ada,
        body: plantInput({ owner: ADA, location: FARM }),
      });
      expect(plant.status, JSON.stringify(plant.body)).toBe(201);
      plants.push(plant.body.data.id as string);
    }
  }, 120_000);
  afterAll(async () => p?.stop());

  const query = async (params: string) => {
    const res = await p.http('GET', `/api/epcis/events?${params}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return eventsOf(res.body);
  };

  it('names an event at a place the operator gave an SGLN by that SGLN, and finds it by EQ_bizLocation', async () => {
    const plantId = plants[0] as string;
    const planted = await p.http('POST', '/api/transport/planting', {
      token: ada,
      body: { plantId, eventTime: '2026-05-01T09:00:00+02:00', handler: ADA, to: FARM, privacyLevel: 'exact' },
    });
    expect(planted.status, JSON.stringify(planted.body)).toBe(201);
    const epc = plantEpc(plantId, BASE, PREFIX);
    const [event] = await query(`MATCH_epc=${encodeURIComponent(epc)}`);
    expect(event?.readPoint).toEqual({ id: FARM_SGLN });
    expect(event?.bizLocation).toEqual({ id: FARM_SGLN });
    expect((await query(`EQ_bizLocation=${encodeURIComponent(FARM_SGLN)}`)).map((e) => e.epcList[0])).toEqual([epc]);
    // Its point finds it too; another SGLN does not.
    expect(await query(`EQ_bizLocation=geo:${FARM.latitude},${FARM.longitude}`)).toHaveLength(1);
    expect(await query(`EQ_bizLocation=${encodeURIComponent(BARN_SGLN)}`)).toEqual([]);
    const bad = await p.http('GET', '/api/epcis/events?EQ_bizLocation=urn:epc:id:sgln:1.2.3');
    expect(bad.status).toBe(400);
  });

  it('keeps the SGLN a captured event names as its business location, and takes a named SGLN for its point', async () => {
    const [, second, third] = plants as [string, string, string];
    const planting = (plantId: string, where: object) => ({
      type: 'ObjectEvent',
      eventTime: '2026-05-02T09:00:00+02:00',
      eventTimeZoneOffset: '+02:00',
      epcList: [plantEpc(plantId, BASE, PREFIX)],
      action: 'ADD',
      bizStep: 'commissioning',
      disposition: 'active',
      ...where,
    });
    const doc = {
      '@context': ['https://ref.gs1.org/standards/epcis/2.0.0/epcis-context.jsonld'],
      type: 'EPCISDocument',
      schemaVersion: '2.0',
      creationDate: '2026-10-02T09:00:00Z',
      epcisBody: {
        eventList: [
          // A partner's own SGLN (no point here) with the place as a geo URI in readPoint.
          planting(second, { readPoint: { id: 'geo:52.3676,4.9041' }, bizLocation: { id: PARTNER_SGLN } }),
          // An SGLN this repository names: its point is the place.
          planting(third, { bizLocation: { id: BARN_SGLN } }),
        ],
      },
    };
    const res = await p.http('POST', '/api/epcis/capture', {
      token: ada,
      body: doc,
      headers: { 'content-type': 'application/ld+json' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const location = res.headers.get('location') as string;
    let job = res.body as { running: boolean };
    for (let i = 0; i < 300 && job.running; i++) {
      await new Promise((r) => setTimeout(r, 100));
      job = (await p.http('GET', location, { token: ada })).body as typeof job;
    }
    expect(job).toMatchObject({ running: false, success: true, capturedCount: 2, errors: [] });

    const [partner] = await query(`MATCH_epc=${encodeURIComponent(plantEpc(second, BASE, PREFIX))}`);
    expect(partner?.bizLocation).toEqual({ id: PARTNER_SGLN });
    expect(partner?.readPoint?.id).toMatch(/^geo:/);
    expect((await query(`EQ_bizLocation=${encodeURIComponent(PARTNER_SGLN)}`)).map((e) => e.eventID)).toEqual([
      partner?.eventID,
    ]);
    const [barn] = await query(`MATCH_epc=${encodeURIComponent(plantEpc(third, BASE, PREFIX))}`);
    expect(barn?.bizLocation).toEqual({ id: BARN_SGLN });
    // Recorded at the barn's point (at the city level captured events get).
    const journey = (await p.http('GET', `/api/transport/journey/${third}`)).body.data as { to: { city?: string } }[];
    expect(journey).toHaveLength(1);
  }, 60_000);
});
