import { service as chainMiner } from '@rootline/chain-miner';
import { plantEpc } from '@rootline/domain';
import { startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import { service as plants } from '@rootline/plants';
import { plantInput } from '@rootline/testing';
import { service as transport } from '@rootline/transport';
import epcis from 'epcis2.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BASE = 'https://rootline.example';
const PREFIX = '9520000';
const AMSTERDAM = { latitude: 52.3676, longitude: 4.9041, city: 'Amsterdam', country: 'NL' };

interface Event {
  eventID: string;
  bizStep: string;
  action: string;
}

/**
 * epcis2.js (EVRYTHNG and Zebra's EPCIS 2.0 SDK) as an outside client: it builds the document with its own classes and
 * checks it with its own validator, the capture interface records it, and the query's answer passes the same validator.
 */
describe('EPCIS 2.0 with epcis2.js as the client', () => {
  let p: TestPlatform;
  let ada: string;
  let epc: string;

  beforeAll(async () => {
    p = await startTestPlatform([chainMiner, plants, transport], { CHAIN_DIFFICULTY: '8', PUBLIC_URL: BASE });
    ada = await p.token('USER', 'usr_ada', 'Ada Grower');
    const plant = await p.http('POST', '/api/plants/register', {
      token: ada,
      body: plantInput({
        commonName: 'Runner bean',
        owner: { id: 'usr_ada', name: 'Ada Grower' },
        location: AMSTERDAM,
      }),
    });
    expect(plant.status, JSON.stringify(plant.body)).toBe(201);
    epc = plantEpc(plant.body.data.id as string, BASE, PREFIX);
  }, 120_000);
  afterAll(async () => {
    await p?.stop();
  });

  it('captures a document epcis2.js built and validated, and answers a query document epcis2.js validates', async () => {
    const planting = new epcis.ObjectEvent()
      .setEventID('urn:uuid:6f1f7c2e-1f0e-4d6a-9d1c-0e7a4b1c9f01')
      .setEventTime('2026-05-01T09:00:00+02:00')
      .addEPC(epc)
      .setAction(epcis.cbv.actionTypes.add)
      .setBizStep(epcis.cbv.bizSteps.commissioning)
      .setDisposition(epcis.cbv.dispositions.active)
      .setReadPoint(new epcis.ReadPoint().setId('geo:52.3676,4.9041'))
      .setBizLocation(new epcis.BizLocation().setId('geo:52.3676,4.9041'));
    const shipping = new epcis.ObjectEvent()
      .setEventID('urn:uuid:6f1f7c2e-1f0e-4d6a-9d1c-0e7a4b1c9f02')
      .setEventTime('2026-06-01T09:00:00+02:00')
      .addEPC(epc)
      .setAction(epcis.cbv.actionTypes.observe)
      .setBizStep(epcis.cbv.bizSteps.shipping)
      .setDisposition(epcis.cbv.dispositions.in_transit)
      .addSource(
        new epcis.SourceElement().setType(epcis.cbv.sourceDestinationTypes.location).setSource('geo:52.3676,4.9041'),
      )
      .addDestination(
        new epcis.DestinationElement()
          .setType(epcis.cbv.sourceDestinationTypes.location)
          .setDestination('geo:52.1601,4.497'),
      );
    const doc = new epcis.EPCISDocument().addEventList([planting, shipping]);
    expect(doc.isValid()).toBe(true);
    const body = doc.toObject();
    expect(epcis.validateEpcisDocument(body, false)).toEqual({ success: true, errors: [] });

    const res = await p.http('POST', '/api/epcis/capture', {
      token: ada,
      body,
      headers: { 'content-type': 'application/ld+json' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const location = res.headers.get('location') as string;
    let job = res.body as { running: boolean; success: boolean; capturedCount: number; errors: unknown[] };
    for (let i = 0; i < 300 && job.running; i++) {
      await new Promise((r) => setTimeout(r, 100));
      job = (await p.http('GET', location, { token: ada })).body as typeof job;
    }
    expect(job).toMatchObject({ running: false, success: true, capturedCount: 2, errors: [] });

    const query = await p.http('GET', `/api/epcis/events?MATCH_anyEPC=${encodeURIComponent(epc)}`);
    expect(query.status).toBe(200);
    const answer = query.body as { type: string; epcisBody: { queryResults: { resultsBody: { eventList: Event[] } } } };
    expect(answer.type).toBe('EPCISQueryDocument');
    expect(epcis.validateEpcisDocument(answer, false)).toEqual({ success: true, errors: [] });
    expect(
      answer.epcisBody.queryResults.resultsBody.eventList.map(({ eventID, bizStep, action }) => ({
        eventID,
        bizStep,
        action,
      })),
    ).toEqual([
      { eventID: planting.getEventID(), bizStep: 'commissioning', action: 'ADD' },
      { eventID: shipping.getEventID(), bizStep: 'shipping', action: 'OBSERVE' },
    ]);
    // Its events read back into epcis2.js's own classes.
    const back = answer.epcisBody.queryResults.resultsBody.eventList.map((e) => epcis.objectToEvent(e));
    expect(back.map((e) => e.getBizStep())).toEqual(['commissioning', 'shipping']);
  }, 120_000);
});
