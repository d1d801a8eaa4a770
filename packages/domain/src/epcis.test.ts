import { describe, expect, it } from 'vitest';
import {
  EPCIS_STEPS,
  epcisEventId,
  epcisObjectEvent,
  geoUri,
  kindsWith,
  plantAssetReference,
  plantEpc,
  plantIdOfEpc,
  plantIdOfGiai,
  pointOfGeoUri,
  uuidV5,
} from './epcis.js';

const PLANT = 'plt_01HZX3K6Q2W8N4B7T5R9V0C1MD';

describe('EPCIS identifiers', () => {
  it('makes RFC 9562 name-based UUIDs (the DNS example of its appendix)', () => {
    expect(uuidV5('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe(
      '2ed6657d-e927-568b-95e1-2665a8aea6a2',
    );
  });

  it('gives each event one urn:uuid, the same on every call', () => {
    const id = epcisEventId('tev_01HZX3K6Q2W8N4B7T5R9V0C1MD');
    expect(id).toMatch(/^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(epcisEventId('tev_01HZX3K6Q2W8N4B7T5R9V0C1MD')).toBe(id);
    expect(epcisEventId('tev_01HZX3K6Q2W8N4B7T5R9V0C1ME')).not.toBe(id);
  });

  it('fits a plant in a GIAI of at most 30 characters and reads it back', () => {
    const ref = plantAssetReference(PLANT) as string;
    expect(ref).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(`12345678${ref}`.length).toBeLessThanOrEqual(30);
    expect(plantIdOfGiai(`9520000${ref}`, '9520000')).toBe(PLANT);
    expect(plantIdOfGiai(`9520001${ref}`, '9520000')).toBeNull();
    for (const id of [
      'plt_00000000000000000000000000',
      'plt_7ZZZZZZZZZZZZZZZZZZZZZZZZZ',
      'plt_ZZZZZZZZZZZZZZZZZZZZZZZZZZ',
    ]) {
      expect(plantIdOfGiai(`9520000${plantAssetReference(id)}`, '9520000')).toBe(id);
    }
  });

  it('names a plant by its Digital Link on the public address and finds it again on any host', () => {
    const epc = plantEpc(PLANT, 'https://rootline.example/', '9520000');
    expect(epc).toBe(`https://rootline.example/8004/9520000${plantAssetReference(PLANT)}`);
    expect(plantIdOfEpc(epc, '9520000')).toBe(PLANT);
    expect(plantIdOfEpc(epc.replace('rootline.example', 'other.example'), '9520000')).toBe(PLANT);
    expect(plantIdOfEpc(`urn:rootline:plant:${PLANT}`, '9520000')).toBe(PLANT);
    expect(plantIdOfEpc('urn:epc:id:sgtin:0614141.107346.2018', '9520000')).toBeNull();
    expect(plantEpc('plt_lowercase0001', 'https://x.example', '9520000')).toBe('urn:rootline:plant:plt_lowercase0001');
  });

  it('writes and reads geo URIs', () => {
    expect(geoUri({ latitude: 52.37, longitude: -4.9 })).toBe('geo:52.37,-4.9');
    expect(pointOfGeoUri('geo:52.37,-4.9;u=10')).toEqual({ latitude: 52.37, longitude: -4.9 });
    expect(pointOfGeoUri('geo:95,1')).toBeNull();
  });
});

describe('EPCIS events', () => {
  const base = {
    id: 'tev_01HZX3K6Q2W8N4B7T5R9V0C1MD',
    plantId: PLANT,
    seedLotId: 'lot_tomato-2026-a',
    quantity: { value: 2.5, unit: 'kg' },
    eventTime: '2026-05-01T10:00:00+02:00',
    recordedAt: '2026-05-01T08:00:01.000Z',
    from: { latitude: 52.1, longitude: 5.1 },
    to: { latitude: 52.37, longitude: 4.9 },
    transportMode: 'bicycle',
    distanceKm: 35,
    kgCo2e: 0,
    handlerId: 'usr_A',
    recipientId: null,
    corrects: null,
    correctedBy: null,
    txId: 'tx_1',
  };
  const ctx = { publicUrl: 'https://rootline.example', companyPrefix: '9520000' };

  it('pairs each business step with the action CBV gives it', () => {
    expect(EPCIS_STEPS.harvest).toMatchObject({ bizStep: 'creating_class_instance', action: 'ADD' });
    expect(EPCIS_STEPS.planting).toMatchObject({ bizStep: 'commissioning', action: 'ADD' });
    expect(EPCIS_STEPS.distribution).toMatchObject({ bizStep: 'shipping', action: 'OBSERVE' });
    expect(kindsWith('bizStep', ['https://ref.gs1.org/cbv/BizStep-shipping']).sort()).toEqual([
      'distribution',
      'seed-sharing',
    ]);
  });

  it('writes a harvest as the creation of the plant’s produce, with its ledger proof bundle', () => {
    const e = epcisObjectEvent({ ...base, kind: 'harvest' }, ctx);
    expect(e).toMatchObject({
      action: 'ADD',
      bizStep: 'creating_class_instance',
      epcList: [],
      quantityList: [
        { epcClass: `urn:rootline:produce:${PLANT}`, quantity: 2.5, uom: 'KGM' },
        { epcClass: 'urn:rootline:seed-lot:lot_tomato-2026-a' },
      ],
      readPoint: { id: 'geo:52.37,4.9' },
      bizLocation: { id: 'geo:52.37,4.9' },
      'rootline:harvestedFrom': plantEpc(PLANT, ctx.publicUrl, ctx.companyPrefix),
      'rootline:proofBundle': 'https://rootline.example/api/transparency/proofs/transactions/tx_1',
    });
  });

  it('writes a handoff with its source and destination and no business location', () => {
    const e = epcisObjectEvent({ ...base, kind: 'distribution', recipientId: 'usr_B' }, ctx);
    expect(e.bizLocation).toBeUndefined();
    expect(e.readPoint).toEqual({ id: 'geo:52.1,5.1' });
    expect(e.sourceList).toEqual([
      { type: 'location', source: 'geo:52.1,5.1' },
      { type: 'possessing_party', source: 'urn:rootline:party:usr_A' },
    ]);
    expect(e.destinationList).toEqual([
      { type: 'location', destination: 'geo:52.37,4.9' },
      { type: 'possessing_party', destination: 'urn:rootline:party:usr_B' },
    ]);
  });

  it('declares a corrected event in error, naming its correction', () => {
    const e = epcisObjectEvent(
      { ...base, kind: 'growing', from: null, to: null, correctedBy: { id: 'tev_X', at: '2026-05-02T00:00:00.000Z' } },
      ctx,
    );
    expect(e.readPoint).toBeUndefined();
    expect(e.errorDeclaration).toEqual({
      declarationTime: '2026-05-02T00:00:00.000Z',
      reason: 'incorrect_data',
      correctiveEventIDs: [epcisEventId('tev_X')],
    });
  });
});
