import { describe, expect, it } from 'vitest';
import { firstOfEach, readingFingerprint } from './readings.js';

const at = '2026-11-23T08:00:00.000Z';

describe('reading fingerprints', () => {
  it('are equal for the same instant and values, whatever the key order or the time’s spelling', () => {
    const a = readingFingerprint({ at, temperatureC: 22, ph: 5.8 });
    expect(readingFingerprint({ ph: 5.8, temperatureC: 22, at: '2026-11-23T09:00:00+01:00' })).toBe(a);
    expect(readingFingerprint({ at, temperatureC: 22, ph: 5.8, co2Ppm: null })).toBe(a);
  });

  it('differ when any value or the instant differs, and an absent value is not a zero', () => {
    const a = readingFingerprint({ at, temperatureC: 22, ph: 5.8 });
    expect(readingFingerprint({ at, temperatureC: 22.1, ph: 5.8 })).not.toBe(a);
    expect(readingFingerprint({ at: '2026-11-23T08:00:01.000Z', temperatureC: 22, ph: 5.8 })).not.toBe(a);
    expect(readingFingerprint({ at, temperatureC: 22, ph: 5.8, ppfd: 0 })).not.toBe(a);
  });

  it('keeps the first of each repeated item', () => {
    expect(firstOfEach(['a', 'b', 'a', 'c', 'b'], (x) => x)).toEqual(['a', 'b', 'c']);
  });
});
