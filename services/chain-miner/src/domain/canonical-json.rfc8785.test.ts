import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeTransaction } from './block.js';
import { canonicalJson } from './canonical-json.js';

// The ledger's canonical JSON against RFC 8785 (the `canonicalize` package the rest of the platform uses): the same
// bytes for every JSON value whose strings are well-formed UTF-16, and only those (ADR 168).

/** Characters that need escaping or sort unexpectedly by UTF-16 units: quotes, controls, separators, astral. */
const tricky = fc.constantFrom(
  '"',
  '\\',
  '/',
  '\n',
  '\r',
  '\t',
  '\b',
  '\f',
  '\u0000',
  '\u001f',
  '\u007f',
  '\u00e9',
  '\u2028',
  '\u2029',
  '\ufeff',
  '\uffff',
  '\u{1f331}',
  '\u{10ffff}',
  'a',
  'Z',
  '0',
);

/** Well-formed strings: printable, any code point, and runs of the tricky characters. */
const wellFormedString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: tricky }),
);

/** Strings of any UTF-16 code units, lone surrogates included. */
const anyUtf16String = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) });

const number = fc.oneof(
  fc.integer(),
  fc.maxSafeInteger(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e-6, max: 1e-6 }),
  fc.constantFrom(-0, 0, 1e21, 1e-7, 1e-6, 5e-324, -5e-324, Number.MAX_VALUE, -Number.MAX_VALUE, 2 ** 53, 0.1 + 0.2),
);

/** JSON values (what `JSON.parse` gives) built from the strings given, as keys and as values. */
const jsonValue = (string: fc.Arbitrary<string>) =>
  fc.letrec((tie) => ({
    json: fc.oneof(
      { depthSize: 'small' },
      fc.constant(null),
      fc.boolean(),
      number,
      string,
      fc.array(tie('json')),
      fc.dictionary(string, tie('json')),
    ),
  })).json;

/** A string holding a surrogate that is not half of a pair. */
const LONE_SURROGATE = /\p{Cs}/u;
const wellFormedText = (s: string) => !LONE_SURROGATE.test(s);

/** Whether every string in the value, keys included, is well-formed UTF-16. */
function wellFormed(value: unknown): boolean {
  if (typeof value === 'string') return wellFormedText(value);
  if (Array.isArray(value)) return value.every(wellFormed);
  if (value && typeof value === 'object') {
    return Object.entries(value).every(([k, v]) => wellFormedText(k) && wellFormed(v));
  }
  return true;
}

describe('canonicalJson and RFC 8785 (canonicalize)', () => {
  it('give identical bytes for random JSON values with well-formed strings, so payload hashes are unchanged', () => {
    fc.assert(
      fc.property(jsonValue(wellFormedString), (value) => {
        expect(canonicalJson(value)).toBe(canonicalize(value));
        // The value as it reaches the ledger: parsed from the text a client sent.
        const received = JSON.parse(JSON.stringify(value)) as unknown;
        expect(canonicalJson(received)).toBe(canonicalize(received));
      }),
      { numRuns: 3000 },
    );
  });

  it('give identical bytes for payloads of every kind, nested objects, arrays, numbers and escapes', () => {
    const payload = {
      plantId: 'plt_1',
      ñame: 'Basil "Genovese"\n\t\\ \u2028 \u{1f331}',
      location: { lon: -0, lat: 48.85, alt: 1e21, err: 5e-324, tiny: 1e-7 },
      tags: ['a', 'b', [], {}, [null, true, false, 0]],
      count: 9007199254740991,
      '\u0000': 1,
      '\u{1f331}': 2,
      '\uffff': 3,
    };
    expect(canonicalJson(payload)).toBe(canonicalize(payload));
    expect(makeTransaction('tx_1', 'plant.register', payload, '2026-01-01T00:00:00.000Z').payload).toBe(
      canonicalize(payload),
    );
  });

  it('differ on any UTF-16 string only where it holds a lone surrogate', () => {
    let illFormed = 0;
    fc.assert(
      fc.property(jsonValue(anyUtf16String), (value) => {
        if (wellFormed(value)) {
          expect(canonicalJson(value)).toBe(canonicalize(value));
        } else {
          illFormed++;
          expect(canonicalJson(value)).toBe(canonicalJson(JSON.parse(canonicalJson(value))));
          expect(() => canonicalize(value)).toThrow(/surrogate/i);
        }
      }),
      { numRuns: 3000 },
    );
    expect(illFormed).toBeGreaterThan(0);
  });

  it('differ on a payload the ledger holds: a lone surrogate, which the ledger escapes and RFC 8785 refuses', () => {
    // `chain.tx.submit` takes any JSON payload: a bus client may send `\ud800` in a string, JSON.parse accepts it
    // and the ledger records it.
    const payload = JSON.parse('{"commonName":"Basil \\ud800"}') as Record<string, unknown>;
    const tx = makeTransaction('tx_1', 'plant.register', payload, '2026-01-01T00:00:00.000Z');
    expect(tx.payload).toBe('{"commonName":"Basil \\ud800"}');
    expect(tx.payloadHash).toBe('3fa9fe531961cdff91669f0bda5eb29a0319d7b2a05ebb2f036d166da1cc8c80');
    expect(() => canonicalize(payload)).toThrow(/surrogate/i);
  });

  it('both refuse non-finite numbers, with the ledger naming them in its VALIDATION_ERROR answer', () => {
    // JSON.parse reads `1e999` as Infinity (batch-interval.test.ts sends it raw and expects 'non-finite').
    const payload = JSON.parse('{"n":1e999}') as unknown;
    expect(() => canonicalJson(payload)).toThrow(/non-finite/);
    expect(() => canonicalize(payload)).toThrow(/Infinity is not allowed/);
  });
});
