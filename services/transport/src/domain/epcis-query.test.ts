import { isAppError } from '@rootline/contracts/errors';
import { plantEpc } from '@rootline/domain';
import { describe, expect, it } from 'vitest';
import { cursorOfToken, pageToken, pipeList, planEpcisQuery } from './epcis-query.js';

const PLANT = 'plt_01HZX3K6Q2W8N4B7T5R9V0C1MD';
const plan = (q: Record<string, string>) => planEpcisQuery({ perPage: 30, ...q }, '9520000');

function refusal(f: () => unknown): { field?: string; reason?: string } {
  try {
    f();
  } catch (err) {
    if (isAppError(err) && err.code === 'VALIDATION_ERROR') return err.details as { field: string; reason: string };
    throw err;
  }
  throw new Error('not refused');
}

describe('EPCIS query plans', () => {
  it('leaves open what the query does not name', () => {
    expect(plan({})).toMatchObject({ kinds: null, from: null, to: null, plantIds: null, bizLocations: null });
  });

  it('splits pipe-delimited lists and drops blanks', () => {
    expect(pipeList('shipping| receiving||')).toEqual(['shipping', 'receiving']);
    expect(pipeList(undefined)).toBeNull();
  });

  it('turns event types, business steps and dispositions into the kinds that have them', () => {
    expect(plan({ eventType: 'AggregationEvent' }).kinds).toEqual([]);
    expect(plan({ eventType: 'ObjectEvent' }).kinds).toHaveLength(7);
    expect(plan({ EQ_bizStep: 'shipping|receiving' }).kinds?.sort()).toEqual([
      'distribution',
      'seed-acquisition',
      'seed-sharing',
    ]);
    expect(plan({ EQ_bizStep: 'shipping', EQ_disposition: 'active' }).kinds).toEqual([]);
    expect(plan({ EQ_disposition: 'https://ref.gs1.org/cbv/Disp-active' }).kinds?.sort()).toEqual([
      'harvest',
      'planting',
    ]);
  });

  it('reads plants from their EPCs, both MATCH parameters together', () => {
    const epc = plantEpc(PLANT, 'https://a.example', '9520000');
    expect(plan({ MATCH_epc: `${epc}|urn:epc:id:sgtin:0614141.107346.2018` }).plantIds).toEqual([PLANT]);
    expect(plan({ MATCH_epc: epc, MATCH_anyEPC: 'urn:rootline:plant:plt_other00000' }).plantIds).toEqual([]);
  });

  it('reads times and places, and refuses malformed ones by name', () => {
    expect(plan({ GE_eventTime: '2026-05-01T10:00:00+02:00' }).from).toBe('2026-05-01T08:00:00.000Z');
    expect(plan({ EQ_bizLocation: 'geo:52.37,4.9' }).bizLocations).toEqual([{ latitude: 52.37, longitude: 4.9 }]);
    expect(refusal(() => plan({ EQ_bizLocation: 'Amsterdam' }))).toMatchObject({
      field: 'EQ_bizLocation',
      reason: 'not-a-geo-uri',
    });
  });

  it('gives page tokens it reads back, and refuses any other', () => {
    const cursor = { eventAt: '2026-05-01 08:00:00.123456+00', recordedAt: '2026-05-01 08:00:01+00', id: 'tev_1' };
    expect(cursorOfToken(pageToken(cursor))).toEqual(cursor);
    expect(refusal(() => cursorOfToken('bm90LWEtdG9rZW4'))).toMatchObject({
      field: 'nextPageToken',
      reason: 'unknown-token',
    });
  });
});
