import { describe, expect, it } from 'vitest';
import { csvField, encodedSize, epcisObjectEvent, exportItem, timeZoneOffset } from './export-format.js';

const row = (data: object) => ({
  seq: 7,
  eventId: 'evt_1',
  kind: 'transport.completed',
  occurredAt: '2026-05-04T07:30:01.000Z',
  data: JSON.stringify(data),
});

const CTX = { publicUrl: 'https://rootline.example', companyPrefix: '9520000' };

describe('export formats', () => {
  it('quotes CSV fields only when RFC 4180 needs it', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
  });

  it('writes JSON items with the stored data and separators after the first', () => {
    expect(JSON.parse(exportItem('json', row({ a: 1 }), true, CTX))).toEqual({
      seq: 7,
      id: 'evt_1',
      kind: 'transport.completed',
      occurredAt: '2026-05-04T07:30:01.000Z',
      data: { a: 1 },
    });
    expect(exportItem('json', row({ a: 1 }), false, CTX).startsWith(',\n{')).toBe(true);
  });

  it('takes the time zone offset of the event time', () => {
    expect(timeZoneOffset('2026-05-04T09:30:00+02:00')).toBe('+02:00');
    expect(timeZoneOffset('2026-05-04T09:30:00-05:30')).toBe('-05:30');
    expect(timeZoneOffset('2026-05-04T07:30:00Z')).toBe('+00:00');
  });

  it('maps a transport event to an EPCIS ObjectEvent with its business step', () => {
    const e = epcisObjectEvent(
      row({
        eventId: 'tev_1',
        kind: 'distribution',
        plantId: 'plt_1',
        seedLotId: 'lot_a',
        transportMode: 'truck',
        distanceKm: 12.5,
        kgCo2e: 1.2,
        eventTime: '2026-05-04T09:30:00+02:00',
        corrects: null,
      }),
      { publicUrl: 'https://rootline.example', companyPrefix: '9520000' },
    );
    expect(e).toMatchObject({
      type: 'ObjectEvent',
      action: 'OBSERVE',
      bizStep: 'shipping',
      disposition: 'in_transit',
      eventTimeZoneOffset: '+02:00',
      epcList: ['urn:rootline:plant:plt_1'],
      quantityList: [{ epcClass: 'urn:rootline:seed-lot:lot_a' }],
    });
  });

  it('never underestimates what a piece takes in a JSON message', () => {
    for (const text of ['plain', 'a "quoted" \\ path', 'line\r\nbreak\ttab\u0001', 'Zoë 🌱 tomate']) {
      expect(encodedSize(text)).toBeGreaterThanOrEqual(Buffer.byteLength(JSON.stringify(text)) - 2);
    }
    expect(encodedSize('plain')).toBe(5);
  });
});
