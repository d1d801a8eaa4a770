import { readFileSync } from 'node:fs';
import { contextToHeaders, listingPublished, newId, plantRegistered, transportCompleted } from '@rootline/contracts';
import { startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { service as transparency } from '../src/service.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const EPCIS_SCHEMA = JSON.parse(
  readFileSync(new URL('./fixtures/vendor/gs1-epcis/EPCIS-JSON-Schema.json', import.meta.url), 'utf8'),
) as object;

/** RFC 4180 records of a CSV text (quoted fields may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += ch;
  }
  return rows;
}

describe('exports of public events over HTTP', () => {
  let p: TestPlatform;
  const actor = { id: 'usr_alice', role: 'USER' as const };
  const publish = (subject: string, payload: object, occurredAt: string) =>
    p.bus.publish({
      id: newId('evt', Date.now()),
      subject,
      occurredAt,
      payload,
      headers: contextToHeaders({ requestId: newId('req', Date.now()), actor }),
    });
  const transport = (kind: string, eventTime: string, extra: object = {}) => ({
    eventId: newId('tev', Date.now()),
    kind,
    plantId: 'plt_exportA0000001',
    seedLotId: null,
    handlerId: 'usr_alice',
    recipientId: null,
    transportMode: 'bicycle',
    distanceKm: 3.5,
    kgCo2e: 0,
    eventTime,
    corrects: null,
    ...extra,
  });

  async function download(query: string, role: 'USER' | null = 'USER') {
    const token = role ? await p.token(role, 'usr_reader') : undefined;
    return p.app.inject({
      method: 'GET',
      url: `/api/transparency/export?${query}`,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
  }

  beforeAll(async () => {
    p = await startTestPlatform([transparency]);
    await publish(
      plantRegistered.subject,
      { plantId: 'plt_exportA0000001', commonName: 'Basil, "Genovese"' },
      '2026-05-01T08:00:00.000Z',
    );
    await publish(
      transportCompleted.subject,
      transport('planting', '2026-05-01T10:00:00+02:00'),
      '2026-05-01T08:00:01.000Z',
    );
    await publish(
      listingPublished.subject,
      {
        listingId: 'lst_export000001',
        sellerId: 'usr_alice',
        title: 'Seedlings',
        category: 'seedling',
        price: 250,
        currency: 'EUR',
      },
      '2026-05-02T08:00:00.000Z',
    );
    await publish(
      transportCompleted.subject,
      transport('distribution', '2026-06-01T09:30:00-04:00', {
        seedLotId: 'lot_basil-2026',
        kgCo2e: 1.25,
        transportMode: 'truck',
      }),
      '2026-06-01T13:30:00.000Z',
    );
    await publish(
      transportCompleted.subject,
      transport('seed-sharing', '2026-07-01T12:00:00Z', {
        plantId: null,
        seedLotId: 'lot_basil-2026',
        recipientId: 'usr_bob',
      }),
      '2026-07-01T12:00:00.000Z',
    );
    for (let i = 0; i < 600; i++) {
      if ((await download('format=summary')).json().data?.total === 5) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the history never held the five events');
  });
  afterAll(async () => {
    await p?.stop();
  });

  it('exports every public event as a JSON array, oldest first', async () => {
    const res = await download('format=json');
    expect(res.statusCode).toBe(200);
    // A download, not an API answer: the file itself (a bare array, no envelope), saved under its name.
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="rootline-events.json"');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(Array.isArray(res.json())).toBe(true);
    const items = res.json() as { seq: number; kind: string; occurredAt: string; data: Record<string, unknown> }[];
    // Seq order is the order the audit log recorded them in.
    expect(items.map((i) => i.kind).sort()).toEqual([
      'listing.published',
      'plant.registered',
      'transport.completed',
      'transport.completed',
      'transport.completed',
    ]);
    expect(items.map((i) => i.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(items.find((i) => i.kind === 'plant.registered')).toMatchObject({
      occurredAt: '2026-05-01T08:00:00.000Z',
      data: { commonName: 'Basil, "Genovese"' },
    });
  });

  it('filters by type and time range; CSV quotes what RFC 4180 says', async () => {
    const res = await download(
      'format=csv&type=plant.registered,listing.published&from=2026-05-01T00:00:00Z&to=2026-05-02T00:00:00Z',
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="rootline-events.csv"');
    expect(res.headers['cache-control']).toBe('no-store');
    const rows = parseCsv(res.body);
    expect(rows[0]).toEqual(['seq', 'id', 'kind', 'occurredAt', 'data']);
    expect(rows).toHaveLength(2);
    expect(rows[1]?.slice(2, 4)).toEqual(['plant.registered', '2026-05-01T08:00:00.000Z']);
    expect(JSON.parse(rows[1]?.[4] ?? '')).toMatchObject({ commonName: 'Basil, "Genovese"' });
    const empty = parseCsv((await download('format=csv&from=2030-01-01T00:00:00Z')).body);
    expect(empty).toEqual([['seq', 'id', 'kind', 'occurredAt', 'data']]);
  });

  it('summarises counts by kind and day', async () => {
    const res = await download('format=summary&to=2026-06-30T00:00:00Z');
    expect(res.statusCode).toBe(200);
    // A summary is an answer, not a file: in the envelope, shown rather than saved.
    expect(res.headers['content-disposition']).toBeUndefined();
    expect(res.json()).toMatchObject({ success: true, error: null });
    expect(res.json().data).toMatchObject({
      total: 4,
      firstOccurredAt: '2026-05-01T08:00:00.000Z',
      lastOccurredAt: '2026-06-01T13:30:00.000Z',
      byKind: [
        { kind: 'listing.published', count: 1 },
        { kind: 'plant.registered', count: 1 },
        { kind: 'transport.completed', count: 2 },
      ],
      byDay: [
        { day: '2026-05-01', count: 2 },
        { day: '2026-05-02', count: 1 },
        { day: '2026-06-01', count: 1 },
      ],
    });
  });

  it('gives transport events as an EPCIS 2.0 document that validates against the published JSON schema', async () => {
    const res = await download('format=epcis');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/ld+json; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="rootline-events.epcis.jsonld"');
    const doc = res.json();
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    const validate = ajv.compile(EPCIS_SCHEMA);
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    expect(doc).toMatchObject({ type: 'EPCISDocument', schemaVersion: '2.0' });
    // In seq order, which is the order they were recorded in; sorted here by their time to name each.
    const events = [...doc.epcisBody.eventList].sort(
      (a: { eventTime: string }, b: { eventTime: string }) => Date.parse(a.eventTime) - Date.parse(b.eventTime),
    );
    expect(events.map((e: { bizStep: string }) => e.bizStep)).toEqual(['commissioning', 'shipping', 'shipping']);
    expect(events[0]).toMatchObject({
      action: 'ADD',
      disposition: 'active',
      epcList: ['urn:rootline:plant:plt_exportA0000001'],
    });
    expect(events[1]).toMatchObject({
      eventTimeZoneOffset: '-04:00',
      quantityList: [{ epcClass: 'urn:rootline:seed-lot:lot_basil-2026' }],
      'rootline:kgCo2e': 1.25,
    });
    expect(events[2]).toMatchObject({ epcList: [], eventTimeZoneOffset: '+00:00' });
    // The schema is not a formality: a document without its event time fails it.
    delete events[0].eventTime;
    expect(validate(doc)).toBe(false);
  });

  it('refuses bad input with a clear error and needs a session', async () => {
    const format = await download('format=xml');
    expect(format.statusCode).toBe(400);
    expect(format.json()).toMatchObject({ success: false, data: null, error: { code: 'VALIDATION_ERROR' } });
    const range = await download('format=json&from=2026-06-01T00:00:00Z&to=2026-05-01T00:00:00Z');
    expect(range.statusCode).toBe(400);
    expect(range.json().error.message).toContain('from must be before to');
    const epcis = await download('format=epcis&type=plant.registered');
    expect(epcis.statusCode).toBe(400);
    const time = await download('format=json&from=yesterday');
    expect(time.statusCode).toBe(400);
    const anonymous = await download('format=json', null);
    expect(anonymous.statusCode).toBe(401);
  });
});
