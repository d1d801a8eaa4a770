import { describe, expect, it } from 'vitest';
import { isSgln, parseEpcisSglns } from './epcis-places.js';

describe('SGLNs of places', () => {
  it('reads <sgln>=<lat>,<lon> pairs and answers both ways, by the exact point', () => {
    const places = parseEpcisSglns(
      ' urn:epc:id:sgln:9520000.00001.0=52.3676,4.9041\n urn:epc:id:sgln:9520000.00002.barn=52.0907,5.1214 ',
    );
    expect(places.sglnOf({ latitude: 52.3676, longitude: 4.9041 })).toBe('urn:epc:id:sgln:9520000.00001.0');
    expect(places.sglnOf({ latitude: 52.0907, longitude: 5.1214 })).toBe('urn:epc:id:sgln:9520000.00002.barn');
    expect(places.sglnOf({ latitude: 52.37, longitude: 4.9 })).toBeUndefined();
    expect(places.pointOf('urn:epc:id:sgln:9520000.00001.0')).toEqual({ latitude: 52.3676, longitude: 4.9041 });
    expect(places.pointOf('urn:epc:id:sgln:9520000.00003.0')).toBeUndefined();
  });

  it('refuses what it cannot read: another URI, a malformed point, one given twice', () => {
    expect(() => parseEpcisSglns('geo:52,4=52,4')).toThrow(/EPCIS_SGLNS/);
    expect(() => parseEpcisSglns('urn:epc:id:sgln:9520000.00001.0=52.3676')).toThrow(/EPCIS_SGLNS/);
    expect(() => parseEpcisSglns('urn:epc:id:sgln:9520000.00001.0=95,4')).toThrow(/out of range/);
    expect(() => parseEpcisSglns('urn:epc:id:sgln:9520000.00001.0=52,4 urn:epc:id:sgln:9520000.00002.0=52,4')).toThrow(
      /twice/,
    );
  });

  it('knows an SGLN by its 12 digits of company prefix and location reference', () => {
    expect(isSgln('urn:epc:id:sgln:0614141.07346.1234')).toBe(true);
    expect(isSgln('urn:epc:id:sgln:0614141.0734.1234')).toBe(false);
    expect(isSgln('geo:52.3676,4.9041')).toBe(false);
  });
});
