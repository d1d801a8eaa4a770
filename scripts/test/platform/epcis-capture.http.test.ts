import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { service as chainMiner } from '@rootline/chain-miner';
import { EPCIS_CAPTURE_FILE_SIZE_LIMIT, EPCIS_CAPTURE_LIMIT } from '@rootline/contracts';
import { epcisEventId, plantEpc } from '@rootline/domain';
import { startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import { service as plants } from '@rootline/plants';
import { plantInput } from '@rootline/testing';
import { service as transparency } from '@rootline/transparency';
import { service as transport } from '@rootline/transport';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const EPCIS_SCHEMA = JSON.parse(
  readFileSync(new URL('../../../services/gateway/vendor/gs1-epcis/EPCIS-JSON-Schema.json', import.meta.url), 'utf8'),
);
const BASE = 'https://rootline.example';
const PREFIX = '9520000';
const AMSTERDAM = { latitude: 52.3676, longitude: 4.9041, city: 'Amsterdam', country: 'NL' };
const GS1_CONTEXT = 'https://ref.gs1.org/standards/epcis/2.0.0/epcis-context.jsonld';

/**
 * Two of GS1's published example documents, as the standard's repository gives them (github.com/gs1/EPCIS, `JSON/`,
 * commit 2b888befbc071e1c2d388e027b30149b3f51dcef): `Example_9.6.1-ObjectEvent.jsonld` and
 * `Example_9.6.3-AggregationEvent.jsonld`. Their EPCs are SGTINs of GS1's example company, which name no plant here.
 */
const GS1_EXAMPLE_9_6_1 = {
  '@context': [GS1_CONTEXT, { example: 'http://ns.example.com/epcis/' }],
  id: 'https://id.example.org/document1',
  type: 'EPCISDocument',
  schemaVersion: '2.0',
  creationDate: '2005-07-11T11:30:47.0Z',
  epcisBody: {
    eventList: [
      {
        eventID: 'ni:///sha-256;df7bb3c352fef055578554f09f5e2aa41782150ced7bd0b8af24dd3ccb30ba69?ver=CBV2.0',
        type: 'ObjectEvent',
        action: 'OBSERVE',
        bizStep: 'shipping',
        disposition: 'in_transit',
        epcList: ['urn:epc:id:sgtin:0614141.107346.2017', 'urn:epc:id:sgtin:0614141.107346.2018'],
        eventTime: '2005-04-03T20:33:31.116000-06:00',
        eventTimeZoneOffset: '-06:00',
        readPoint: { id: 'urn:epc:id:sgln:0614141.07346.1234' },
        bizTransactionList: [{ type: 'po', bizTransaction: 'http://transaction.acme.com/po/12345678' }],
      },
      {
        eventID: 'ni:///sha-256;00e1e6eba3a7cc6125be4793a631f0af50f8322e0ab5f2c0bab994a11cec1d79?ver=CBV2.0',
        type: 'ObjectEvent',
        action: 'OBSERVE',
        bizStep: 'receiving',
        disposition: 'in_progress',
        epcList: ['urn:epc:id:sgtin:0614141.107346.2018'],
        eventTime: '2005-04-04T20:33:31.116-06:00',
        eventTimeZoneOffset: '-06:00',
        readPoint: { id: 'urn:epc:id:sgln:0012345.11111.400' },
        bizLocation: { id: 'urn:epc:id:sgln:0012345.11111.0' },
        bizTransactionList: [
          { type: 'po', bizTransaction: 'http://transaction.acme.com/po/12345678' },
          { type: 'desadv', bizTransaction: 'urn:epcglobal:cbv:bt:0614141073467:1152' },
        ],
        'example:myField': 'Example of a vendor/user extension',
      },
    ],
  },
};
const GS1_EXAMPLE_9_6_3 = {
  '@context': [GS1_CONTEXT, { example: 'http://ns.example.com/epcis/' }],
  id: 'https://id.example.org/document1',
  type: 'EPCISDocument',
  schemaVersion: '2.0',
  creationDate: '2005-07-11T11:30:47.0Z',
  epcisBody: {
    eventList: [
      {
        eventID: 'ni:///sha-256;87b5f18a69993f0052046d4687dfacdf48f7c988cfabda2819688c86b4066a49?ver=CBV2.0',
        type: 'AggregationEvent',
        eventTime: '2013-06-08T14:58:56.591Z',
        eventTimeZoneOffset: '+02:00',
        parentID: 'urn:epc:id:sscc:0614141.1234567890',
        childEPCs: ['urn:epc:id:sgtin:0614141.107346.2017', 'urn:epc:id:sgtin:0614141.107346.2018'],
        action: 'OBSERVE',
        bizStep: 'receiving',
        disposition: 'in_progress',
        readPoint: { id: 'urn:epc:id:sgln:0614141.00777.0' },
        bizLocation: { id: 'urn:epc:id:sgln:0614141.00888.0' },
        childQuantityList: [
          { epcClass: 'urn:epc:idpat:sgtin:4012345.098765.*', quantity: 10 },
          { epcClass: 'urn:epc:class:lgtin:4012345.012345.998877', quantity: 200.5, uom: 'KGM' },
        ],
        'example:myField': 'Example of a vendor/user extension',
      },
    ],
  },
};

interface Job {
  captureID: string;
  running: boolean;
  success: boolean;
  eventCount: number;
  capturedCount: number;
  errors: { type: string; status: number; instance: string; code: string; details?: { reason?: string } }[];
}
interface EpcisEvent {
  eventID: string;
  bizStep: string;
  epcList: string[];
  [key: string]: unknown;
}

const document = (eventList: object[]) => ({
  '@context': [GS1_CONTEXT],
  type: 'EPCISDocument',
  schemaVersion: '2.0',
  creationDate: '2026-10-02T09:00:00Z',
  epcisBody: { eventList },
});

describe('EPCIS 2.0 capture: documents become journey events under the native rules', () => {
  let p: TestPlatform;
  let ada: string;
  let bo: string;
  let plantA: string;
  let plantB: string;
  let epcA: string;
  let epcB: string;
  const validate = (() => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    return ajv.compile(EPCIS_SCHEMA);
  })();

  async function capture(body: unknown, token: string | undefined, headers: Record<string, string> = {}) {
    return p.http('POST', '/api/epcis/capture', {
      ...(token ? { token } : {}),
      body,
      headers: { 'content-type': 'application/ld+json', ...headers },
    });
  }

  /** The job once it has run (the capture answers before its events are recorded). */
  async function finished(location: string, token: string): Promise<Job> {
    for (let i = 0; i < 300; i++) {
      const res = await p.http('GET', location, { token });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const job = res.body as Job;
      if (!job.running) return job;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`${location} still running`);
  }

  async function captured(body: unknown, token: string, headers: Record<string, string> = {}): Promise<Job> {
    const res = await capture(body, token, headers);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    return finished(res.headers.get('location') as string, token);
  }

  const eventsOf = (body: unknown) =>
    (body as { epcisBody: { queryResults: { resultsBody: { eventList: EpcisEvent[] } } } }).epcisBody.queryResults
      .resultsBody.eventList;

  beforeAll(async () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    p = await startTestPlatform([chainMiner, plants, transport, transparency], {
      CHAIN_DIFFICULTY: '8',
      PUBLIC_URL: BASE,
      AUDIT_SIGNING_KEY: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    });
    ada = await p.token('USER', 'usr_ada', 'Ada Grower');
    bo = await p.token('USER', 'usr_bo', 'Bo Other');
    const register = async (token: string, id: string, name: string) => {
      const res = await p.http('POST', '/api/plants/register', {
        token,
        body: plantInput({ commonName: 'Cherry tomato', owner: { id, name }, location: AMSTERDAM }),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.data.id as string;
    };
    plantA = await register(ada, 'usr_ada', 'Ada Grower');
    plantB = await register(bo, 'usr_bo', 'Bo Other');
    epcA = plantEpc(plantA, BASE, PREFIX);
    epcB = plantEpc(plantB, BASE, PREFIX);
  }, 120_000);
  afterAll(async () => {
    await p?.stop();
  });

  it('records a captured document as journey events: 202 with the job, the same events in the query with their eventIDs and proof bundles, and in the export', async () => {
    const planting = {
      type: 'ObjectEvent',
      eventID: 'urn:uuid:2b1f7c2e-1f0e-4d6a-9d1c-0e7a4b1c9f01',
      eventTime: '2026-05-01T09:00:00+02:00',
      eventTimeZoneOffset: '+02:00',
      epcList: [epcA],
      action: 'ADD',
      bizStep: 'commissioning',
      disposition: 'active',
      readPoint: { id: 'geo:52.3676,4.9041' },
      bizLocation: { id: 'geo:52.3676,4.9041' },
    };
    const shipping = {
      type: 'ObjectEvent',
      eventID: 'urn:uuid:2b1f7c2e-1f0e-4d6a-9d1c-0e7a4b1c9f02',
      eventTime: '2026-08-01T09:00:00+02:00',
      eventTimeZoneOffset: '+02:00',
      epcList: [`urn:rootline:plant:${plantA}`],
      action: 'OBSERVE',
      bizStep: 'https://ref.gs1.org/cbv/BizStep-shipping',
      disposition: 'in_transit',
      sourceList: [{ type: 'location', source: 'geo:52.3676,4.9041' }],
      destinationList: [{ type: 'location', destination: 'geo:52.1601,4.497' }],
      'rootline:transportMode': 'bicycle',
    };
    const harvest = {
      type: 'TransformationEvent',
      eventID: 'urn:uuid:2b1f7c2e-1f0e-4d6a-9d1c-0e7a4b1c9f03',
      eventTime: '2026-07-01T09:00:00+02:00',
      eventTimeZoneOffset: '+02:00',
      inputEPCList: [epcA],
      outputQuantityList: [{ epcClass: `urn:rootline:produce:${plantA}`, quantity: 2.5, uom: 'KGM' }],
      readPoint: { id: 'geo:52.3676,4.9041' },
    };
    const doc = document([planting, shipping, harvest]);
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    const res = await capture(doc, ada);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const location = res.headers.get('location') as string;
    expect(location).toMatch(/^\/api\/epcis\/capture\/cap_[A-Za-z0-9]+$/);
    expect(res.headers.get('gs1-epcis-capture-limit')).toBe(String(EPCIS_CAPTURE_LIMIT));
    expect(res.headers.get('gs1-epcis-capture-file-size-limit')).toBe(String(EPCIS_CAPTURE_FILE_SIZE_LIMIT));
    expect(res.body).toMatchObject({ captureID: location.split('/').at(-1), eventCount: 3 });
    const job = await finished(location, ada);
    expect(job).toMatchObject({ running: false, success: true, capturedCount: 3, errors: [] });

    // Journey events as the native routes record them: Ada as the handler, in time order, at the city level.
    const journey = (await p.http('GET', `/api/transport/journey/${plantA}`)).body.data as {
      kind: string;
      handler: { id: string; name: string };
      transportMode: string;
      from: { latitude: number } | null;
    }[];
    expect(journey.map((e) => e.kind)).toEqual(['planting', 'harvest', 'distribution']);
    expect(journey.every((e) => e.handler.id === 'usr_ada' && e.handler.name === 'Ada Grower')).toBe(true);
    expect(journey[2]?.transportMode).toBe('bicycle');
    expect(journey[2]?.from?.latitude).not.toBe(52.3676);

    // The query answers them under the eventIDs they were captured with, each linking its ledger proof bundle.
    const query = await p.http('GET', `/api/epcis/events?MATCH_anyEPC=${encodeURIComponent(epcA)}`);
    expect(query.status).toBe(200);
    expect(validate(query.body), JSON.stringify(validate.errors)).toBe(true);
    const events = eventsOf(query.body);
    expect(events.map((e) => e.eventID)).toEqual([planting.eventID, shipping.eventID]);
    expect(events.map((e) => e.bizStep)).toEqual(['commissioning', 'shipping']);
    const all = eventsOf((await p.http('GET', '/api/epcis/events')).body);
    expect(all.map((e) => e.eventID)).toContain(harvest.eventID);
    for (const e of all) {
      expect(e['rootline:proofBundle']).toMatch(new RegExp(`^${BASE}/api/transparency/proofs/transactions/tx_`));
    }
    const bundle = String(events[0]?.['rootline:proofBundle']).slice(BASE.length);
    let proof = await p.http('GET', bundle);
    for (let i = 0; i < 100 && proof.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      proof = await p.http('GET', bundle);
    }
    expect(proof.status, JSON.stringify(proof.body)).toBe(200);

    // The export, from the public journey events, holds the same events on the same plant.
    let exported: EpcisEvent[] = [];
    let exportBody: unknown;
    for (let i = 0; i < 100 && exported.filter((e) => e.epcList.includes(epcA)).length < 2; i++) {
      const answer = await p.http('GET', '/api/transparency/export?format=epcis', { token: ada });
      expect(answer.status).toBe(200);
      exportBody = answer.body;
      exported = (answer.body as { epcisBody: { eventList: EpcisEvent[] } }).epcisBody.eventList;
      if (exported.filter((e) => e.epcList.includes(epcA)).length < 2) await new Promise((r) => setTimeout(r, 100));
    }
    expect(exported.filter((e) => e.epcList.includes(epcA)).map((e) => e.bizStep)).toEqual([
      'commissioning',
      'shipping',
    ]);
    // Under the eventIDs they were captured with, as the query names them (not the derived urn:uuid).
    expect(exported.filter((e) => e.epcList.includes(epcA)).map((e) => e.eventID)).toEqual([
      planting.eventID,
      shipping.eventID,
    ]);
    expect(exported.map((e) => e.eventID)).toContain(harvest.eventID);
    expect(validate(exportBody), JSON.stringify(validate.errors)).toBe(true);

    // The query's answer captured back as it is (an EPCISQueryDocument): nothing more is recorded (idempotent by
    // eventID).
    const again = await captured(query.body, ada);
    expect(again).toMatchObject({ success: true, eventCount: 2, capturedCount: 2, errors: [] });
    const after = (await p.http('GET', `/api/transport/journey/${plantA}`)).body.data as unknown[];
    expect(after).toHaveLength(3);
    // So is an event recorded through /api/transport, by the eventID the query gives it.
    const native = await p.http('POST', '/api/transport/growing', {
      token: ada,
      body: { plantId: plantA, eventTime: '2026-08-15T09:00:00+02:00', from: AMSTERDAM, to: AMSTERDAM },
    });
    expect(native.status, JSON.stringify(native.body)).toBe(201);
    const withNative = await p.http('GET', `/api/epcis/events?MATCH_anyEPC=${encodeURIComponent(epcA)}`);
    expect(eventsOf(withNative.body).map((e) => e.eventID)).toContain(epcisEventId(native.body.data.id));
    expect(await captured(withNative.body, ada)).toMatchObject({ success: true, capturedCount: 3 });
    expect((await p.http('GET', `/api/transport/journey/${plantA}`)).body.data).toHaveLength(4);

    // The list of Ada's jobs holds them, newest first; Bo sees none of them.
    const list = await p.http('GET', '/api/epcis/capture', { token: ada });
    expect(list.status).toBe(200);
    expect((list.body as Job[]).map((j) => j.captureID).slice(1)).toEqual([again.captureID, job.captureID]);
    expect((await p.http('GET', '/api/epcis/capture', { token: bo })).body).toEqual([]);
  }, 120_000);

  it("refuses events on someone else's plant, unknown EPCs and unsupported events one by one with the standard's problems", async () => {
    const on = (epc: string, id: string, extra: object = {}) => ({
      type: 'ObjectEvent',
      eventID: `urn:uuid:5c0d8e1a-7b7e-4f2a-8f4e-9a1d2c3b4e${id}`,
      eventTime: '2026-09-01T09:00:00+02:00',
      eventTimeZoneOffset: '+02:00',
      epcList: [epc],
      action: 'OBSERVE',
      bizStep: 'storing',
      bizLocation: { id: 'geo:52.3676,4.9041' },
      ...extra,
    });
    const doc = document([
      on(epcB, '01'),
      on(`${BASE}/8004/9520000AAAAAAAAAAAAAAAAAAAAAAA`, '02'),
      on(epcA, '03', { bizStep: 'inspecting' }),
      on(epcA, '04'),
    ]);
    // Rollback (the default): one refusal and nothing is recorded.
    const rolledBack = await captured(doc, ada);
    expect(rolledBack).toMatchObject({ running: false, success: false, capturedCount: 0 });
    expect(rolledBack.errors.map((e) => [e.instance.slice(-2), e.type, e.status])).toEqual([
      ['01', 'epcisException:SecurityException', 403],
      ['02', 'epcisException:NoSuchResourceException', 404],
      ['03', 'epcisException:ImplementationException', 501],
    ]);
    expect(rolledBack.errors[0]?.details?.reason).toBe('not-custodian');
    const kinds = async (plantId: string) =>
      ((await p.http('GET', `/api/transport/journey/${plantId}`)).body.data as { kind: string }[]).map((e) => e.kind);
    expect(await kinds(plantA)).not.toContain('seed-saving');
    expect(await kinds(plantB)).toEqual([]);

    // Proceed: the event Ada may record is, the others are refused the same way.
    const proceeded = await captured(doc, ada, { 'gs1-capture-error-behaviour': 'proceed' });
    expect(proceeded).toMatchObject({ success: false, capturedCount: 1 });
    expect(proceeded.errors).toHaveLength(3);
    expect(await kinds(plantA)).toContain('seed-saving');
    expect(await kinds(plantB)).toEqual([]);

    // Her job is hers: Bo cannot read it.
    const theirs = await p.http('GET', `/api/epcis/capture/${proceeded.captureID}`, { token: bo });
    expect(theirs.status).toBe(403);
    expect(theirs.body).toMatchObject({ type: 'epcisException:SecurityException', status: 403 });
    const none = await p.http('GET', '/api/epcis/capture/cap_01HZX3K6Q2W8N4B7T5R9V0C1MZ', { token: ada });
    expect(none.status).toBe(404);
    expect(none.body).toMatchObject({ type: 'epcisException:NoSuchNameException' });
  }, 120_000);

  it("captures GS1's published examples unchanged and refuses their events with the standard's errors", async () => {
    for (const example of [GS1_EXAMPLE_9_6_1, GS1_EXAMPLE_9_6_3]) {
      expect(validate(example), JSON.stringify(validate.errors)).toBe(true);
    }
    const objects = await captured(GS1_EXAMPLE_9_6_1, ada, { 'gs1-capture-error-behaviour': 'proceed' });
    expect(objects).toMatchObject({ success: false, eventCount: 2, capturedCount: 0 });
    expect(objects.errors.map((e) => [e.instance, e.type, e.status])).toEqual([
      [GS1_EXAMPLE_9_6_1.epcisBody.eventList[0]?.eventID, 'epcisException:NoSuchResourceException', 404],
      [GS1_EXAMPLE_9_6_1.epcisBody.eventList[1]?.eventID, 'epcisException:ImplementationException', 501],
    ]);
    const aggregation = await captured(GS1_EXAMPLE_9_6_3, ada);
    expect(aggregation.errors.map((e) => [e.type, e.status, e.code])).toEqual([
      ['epcisException:ImplementationException', 501, 'UNPROCESSABLE'],
    ]);
  }, 60_000);

  it('advertises its limits as the standard says: OPTIONS /capture answers them in headers', async () => {
    const res = await p.http('OPTIONS', '/api/epcis/capture');
    expect(res.status).toBe(204);
    expect(res.headers.get('allow')).toBe('OPTIONS, POST, GET');
    expect(res.headers.get('gs1-epcis-capture-limit')).toBe(String(EPCIS_CAPTURE_LIMIT));
    expect(res.headers.get('gs1-epcis-capture-file-size-limit')).toBe(String(EPCIS_CAPTURE_FILE_SIZE_LIMIT));
    expect(res.headers.get('gs1-capture-error-behaviour')).toBe('rollback');
    expect(res.headers.get('gs1-epcis-version')).toBe('2.0.0');
  });

  it('refuses documents that are not valid EPCIS, over the limits, or from no one, with problems', async () => {
    const broken = document([{ type: 'ObjectEvent', action: 'OBSERVE', epcList: [epcA] }]);
    const invalid = await capture(broken, ada);
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(invalid.body).toMatchObject({ type: 'epcisException:ValidationException', status: 400 });

    const event = {
      type: 'ObjectEvent',
      eventTime: '2026-09-01T09:00:00+02:00',
      eventTimeZoneOffset: '+02:00',
      epcList: [epcA],
      action: 'OBSERVE',
    };
    const many = Array.from({ length: EPCIS_CAPTURE_LIMIT + 1 }, (_, i) => ({
      ...event,
      eventTime: new Date(Date.UTC(2026, 8, 1) + i * 60_000).toISOString(),
    }));
    const tooMany = await capture(document(many), ada);
    expect(tooMany.status).toBe(413);
    expect(tooMany.body).toMatchObject({ type: 'epcisException:CaptureLimitExceededException', status: 413 });
    expect(tooMany.headers.get('gs1-epcis-capture-limit')).toBe(String(EPCIS_CAPTURE_LIMIT));

    const padded = { ...document([event]), padding: 'x'.repeat(EPCIS_CAPTURE_FILE_SIZE_LIMIT) };
    const tooBig = await capture(padded, ada);
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toMatchObject({ type: 'epcisException:CaptureLimitExceededException' });

    const anonymous = await capture(document([event]), undefined);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ type: 'epcisException:SecurityException' });

    const behaviour = await capture(document([event]), ada, { 'gs1-capture-error-behaviour': 'sometimes' });
    expect(behaviour.status).toBe(400);
    expect(behaviour.body).toMatchObject({ type: 'epcisException:ValidationException' });
  }, 60_000);
});
