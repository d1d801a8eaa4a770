import { plantEpc } from '@rootline/domain';
import { describe, expect, it } from 'vitest';
import { bareBizStep, journeyEventOfEpcis } from './epcis-capture.js';
import { parseEpcisSglns } from './epcis-places.js';

const PREFIX = '9520000';
const PLANT = 'plt_01HZX3K6Q2W8N4B7T5R9V0C1MD';
const EPC = plantEpc(PLANT, 'https://rootline.example', PREFIX);
const base = {
  type: 'ObjectEvent',
  eventTime: '2026-05-01T09:00:00+02:00',
  eventTimeZoneOffset: '+02:00',
  epcList: [EPC],
  action: 'OBSERVE',
  bizLocation: { id: 'geo:52.37,4.89' },
};
const map = (e: object) => journeyEventOfEpcis(e as Record<string, unknown>, PREFIX);

describe('a captured EPCIS event as a journey event', () => {
  it('maps each supported business step to its kind, the place from bizLocation or readPoint', () => {
    expect(map({ ...base, action: 'ADD', bizStep: 'commissioning' })).toEqual({
      ok: true,
      event: {
        kind: 'planting',
        plantId: PLANT,
        eventTime: base.eventTime,
        to: { latitude: 52.37, longitude: 4.89 },
        transportMode: 'none',
      },
    });
    expect(map({ ...base, bizStep: 'urn:epcglobal:cbv:bizstep:storing' })).toMatchObject({
      event: { kind: 'seed-saving' },
    });
    const { bizLocation: _, ...noBiz } = base;
    expect(map({ ...noBiz, bizStep: 'storing', readPoint: { id: 'geo:1,2' } })).toMatchObject({
      event: { to: { latitude: 1, longitude: 2 } },
    });
  });

  it('takes a movement from its source and destination locations, and a transport mode of ours', () => {
    const { bizLocation: _, ...moving } = base;
    const mapped = map({
      ...moving,
      epcList: [`urn:rootline:plant:${PLANT}`],
      bizStep: 'https://ref.gs1.org/cbv/BizStep-shipping',
      sourceList: [{ type: 'location', source: 'geo:52.37,4.89' }],
      destinationList: [{ type: 'https://ref.gs1.org/cbv/SDT-location', destination: 'geo:52.16,4.5' }],
      'rootline:transportMode': 'bicycle',
    });
    expect(mapped).toMatchObject({
      ok: true,
      event: {
        kind: 'distribution',
        from: { latitude: 52.37, longitude: 4.89 },
        to: { latitude: 52.16, longitude: 4.5 },
        transportMode: 'bicycle',
      },
    });
    expect(map({ ...moving, bizStep: 'transporting' })).toMatchObject({
      ok: false,
      refusal: { status: 400, field: 'destinationList' },
    });
  });

  it('reads a harvest from a TransformationEvent or our own ObjectEvent, with its mass', () => {
    const transformation = {
      type: 'TransformationEvent',
      eventTime: base.eventTime,
      eventTimeZoneOffset: '+02:00',
      inputEPCList: [EPC],
      outputQuantityList: [{ epcClass: `urn:rootline:produce:${PLANT}`, quantity: 2.5, uom: 'KGM' }],
      readPoint: { id: 'geo:52.37,4.89' },
    };
    expect(map(transformation)).toMatchObject({
      ok: true,
      event: { kind: 'harvest', plantId: PLANT, quantity: { value: 2.5, unit: 'kg' } },
    });
    expect(
      map({
        ...base,
        epcList: [],
        action: 'ADD',
        bizStep: 'creating_class_instance',
        'rootline:harvestedFrom': EPC,
        quantityList: [{ epcClass: `urn:rootline:produce:${PLANT}`, quantity: 300, uom: 'GRM' }],
      }),
    ).toMatchObject({ ok: true, event: { kind: 'harvest', quantity: { value: 300, unit: 'g' } } });
    expect(map({ ...transformation, outputQuantityList: [{ epcClass: 'x', quantity: 3 }] })).toMatchObject({
      ok: false,
      refusal: { type: 'epcisException:ValidationException', field: 'outputQuantityList' },
    });
  });

  it("refuses what it does not capture with the standard's types", () => {
    const refusal = (e: object) => {
      const m = map(e);
      return m.ok ? null : [m.refusal.type, m.refusal.status, m.refusal.field];
    };
    const NOT_SUPPORTED = 'epcisException:ImplementationException';
    expect(refusal({ ...base, type: 'AggregationEvent' })).toEqual([NOT_SUPPORTED, 501, 'type']);
    expect(refusal({ ...base, bizStep: 'inspecting' })).toEqual([NOT_SUPPORTED, 501, 'bizStep']);
    expect(refusal({ ...base, action: 'DELETE', bizStep: 'storing' })).toEqual([NOT_SUPPORTED, 501, 'action']);
    expect(refusal({ ...base, bizStep: 'storing', errorDeclaration: { declarationTime: base.eventTime } })).toEqual([
      NOT_SUPPORTED,
      501,
      'errorDeclaration',
    ]);
    expect(
      refusal({
        ...base,
        bizStep: 'shipping',
        destinationList: [{ type: 'possessing_party', destination: 'urn:rootline:party:usr_x' }],
      }),
    ).toEqual([NOT_SUPPORTED, 501, 'destinationList']);
    expect(refusal({ ...base, bizStep: 'storing', epcList: ['urn:epc:id:sgtin:0614141.107346.2017'] })).toEqual([
      'epcisException:NoSuchResourceException',
      404,
      'epcList',
    ]);
    expect(refusal({ ...base, bizStep: 'storing', epcList: [EPC, EPC] })).toEqual([
      'epcisException:ValidationException',
      400,
      'epcList',
    ]);
    expect(refusal({ ...base, bizStep: 'storing', bizLocation: { id: 'urn:epc:id:sgln:0614141.07346.1234' } })).toEqual(
      ['epcisException:ValidationException', 400, 'bizLocation'],
    );
    expect(refusal({ ...base, bizStep: 'storing', 'rootline:kind': 'planting' })).toEqual([
      'epcisException:ValidationException',
      400,
      'rootline:kind',
    ]);
  });

  it('reads business steps as bare words, CBV URIs or EPC URNs', () => {
    expect(
      ['shipping', 'https://ref.gs1.org/cbv/BizStep-shipping', 'urn:epcglobal:cbv:bizstep:shipping'].map(bareBizStep),
    ).toEqual(['shipping', 'shipping', 'shipping']);
  });
});

describe('SGLNs as captured places', () => {
  const places = parseEpcisSglns('urn:epc:id:sgln:9520000.00001.0=52.3676,4.9041');
  const planting = { ...base, action: 'ADD', bizStep: 'commissioning' };

  it('takes a named SGLN for its point and keeps an SGLN business location as given', () => {
    expect(
      journeyEventOfEpcis({ ...planting, bizLocation: { id: 'urn:epc:id:sgln:9520000.00001.0' } }, PREFIX, places),
    ).toMatchObject({
      ok: true,
      bizLocation: 'urn:epc:id:sgln:9520000.00001.0',
      event: { to: { latitude: 52.3676, longitude: 4.9041 } },
    });
    expect(
      journeyEventOfEpcis(
        { ...planting, bizLocation: { id: 'urn:epc:id:sgln:0614141.07346.1234' }, readPoint: { id: 'geo:52,4' } },
        PREFIX,
        places,
      ),
    ).toMatchObject({ ok: true, bizLocation: 'urn:epc:id:sgln:0614141.07346.1234', event: { to: { latitude: 52 } } });
  });

  it('refuses an SGLN that names no point here when nothing else gives the place', () => {
    expect(
      journeyEventOfEpcis({ ...planting, bizLocation: { id: 'urn:epc:id:sgln:0614141.07346.1234' } }, PREFIX, places),
    ).toMatchObject({ ok: false, refusal: { status: 400, field: 'bizLocation' } });
  });
});
