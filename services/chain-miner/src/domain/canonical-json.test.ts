import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeTransaction } from './block.js';
import { canonicalJson } from './canonical-json.js';

/** The plain recursive form the ledger's payload hashes were first made with: the reference for every byte. */
function referenceCanonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError('canonical JSON has no representation for non-finite numbers');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) {
    return `[${value.map((v) => referenceCanonicalJson(v === undefined ? null : v)).join(',')}]`;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${referenceCanonicalJson(v)}`).join(',')}}`;
  }
  throw new TypeError(`canonical JSON cannot encode a ${typeof value}`);
}

/** The outcome of one encoder: its text, or the error it threw. */
function outcome(encode: (v: unknown) => string, value: unknown): { text: string } | { error: string } {
  try {
    return { text: encode(value) };
  } catch (err) {
    return { error: `${(err as Error).name}: ${(err as Error).message}` };
  }
}

const sameAsReference = (value: unknown): void => {
  expect(outcome(canonicalJson, value)).toEqual(outcome(referenceCanonicalJson, value));
};

describe('canonicalJson against the reference form', () => {
  it('gives the same text for random JSON values, keys of any UTF-16 units included', () => {
    const key = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.nat().map(String));
    const value = fc.letrec((tie) => ({
      json: fc.oneof(
        { depthSize: 'small' },
        fc.constant(null),
        fc.boolean(),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.integer(),
        fc.string({ unit: 'binary' }),
        fc.array(tie('json')),
        fc.dictionary(key, tie('json')),
      ),
    })).json;
    fc.assert(fc.property(value, sameAsReference), { numRuns: 2000 });
  });

  it('gives the same text or the same error for anything else JavaScript holds', () => {
    const anything = fc.anything({
      withBoxedValues: true,
      withMap: true,
      withSet: true,
      withObjectString: true,
      withNullPrototype: true,
      withBigInt: true,
      withDate: true,
      withTypedArray: true,
      withSparseArray: true,
    });
    fc.assert(fc.property(anything, sameAsReference), { numRuns: 2000 });
  });

  it('keeps the reference oddities: undefined, holes, -0, symbols, functions', () => {
    const cases: unknown[] = [
      { a: undefined, b: [undefined, 1] },
      // A hole (not written literally: the linter refuses sparse literals).
      Object.assign(new Array(3), { 0: 1, 2: 2 }),
      -0,
      { z: -0, y: 1e21, x: 5e-324 },
      { s: Symbol('s') },
      { f: () => 1 },
      undefined,
      new Date(0),
      { 10: 'a', 2: 'b', '': 'c', é: 'd', '\ud800': 'e' },
    ];
    for (const c of cases) sameAsReference(c);
  });

  it('hashes a transaction as before', () => {
    const payload = { plantId: 'plt_1', commonName: 'Basil', location: { lon: 2.35, lat: 48.85 }, tags: ['a', 'b'] };
    const tx = makeTransaction('tx_1', 'plant.register', payload, '2026-01-01T00:00:00.000Z');
    expect(tx.payload).toBe(referenceCanonicalJson(payload));
    expect(tx.payload).toBe(
      '{"commonName":"Basil","location":{"lat":48.85,"lon":2.35},"plantId":"plt_1","tags":["a","b"]}',
    );
  });
});
