import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { requestText, withoutOnceFields } from './idempotency.js';

describe('withoutOnceFields', () => {
  const answer = JSON.stringify({
    success: true,
    data: { id: 'plt_1', publicKey: 'PUB', privateKey: 'SECRET' },
    error: null,
  });

  it('stores the answer with the fields shown once set to null', () => {
    const stored = withoutOnceFields(answer, ['privateKey']);
    expect(stored).not.toContain('SECRET');
    expect(JSON.parse(stored)).toEqual({
      success: true,
      data: { id: 'plt_1', publicKey: 'PUB', privateKey: null },
      error: null,
    });
  });

  it('leaves other answers as they are', () => {
    expect(withoutOnceFields(answer, undefined)).toBe(answer);
    expect(withoutOnceFields(answer, [])).toBe(answer);
    expect(withoutOnceFields('not json', ['privateKey'])).toBe('not json');
    const error = JSON.stringify({ success: false, data: null, error: { code: 'VALIDATION_ERROR' } });
    expect(withoutOnceFields(error, ['privateKey'])).toBe(error);
  });
});

/** The key-sorted JSON the stored request digests were first made with: the reference for every byte. */
function referenceText(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(referenceText).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${referenceText(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

describe('requestText', () => {
  // What validation lets through: JSON with well-formed strings (every string is a Text, a pattern, a format or an
  // enum, all refusing lone surrogates) and bounded, finite numbers; no body at all on a multipart upload.
  const text = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }));
  const json = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      fc.constant(null),
      fc.boolean(),
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.constantFrom(-0, 1e21, 5e-324, 1e-7),
      text,
      fc.array(tie('value')),
      fc.dictionary(text, tie('value')),
    ),
  })).value;

  it('gives the bytes stored digests were made with, for every request validation lets through', () => {
    const request = fc.oneof(
      json,
      fc.constant(undefined),
      fc.record({
        params: fc.dictionary(text, text),
        query: fc.dictionary(text, json),
        body: fc.option(json, { nil: undefined }),
      }),
    );
    fc.assert(
      fc.property(request, (r) => {
        expect(requestText(r)).toBe(referenceText(r));
      }),
      { numRuns: 3000 },
    );
  });

  it('is the same whatever the key order, and null without a body', () => {
    expect(requestText({ b: 1, a: { d: [1, { z: 0, y: 'x' }], c: undefined } })).toBe(
      '{"a":{"d":[1,{"y":"x","z":0}]},"b":1}',
    );
    expect(requestText(undefined)).toBe('null');
    expect(requestText({ params: { id: 'f_1' }, query: {}, body: undefined })).toBe(
      '{"params":{"id":"f_1"},"query":{}}',
    );
  });
});
