import { describe, expect, it } from 'vitest';
import { redactUrl, serializeError } from './logging.js';

describe('log redaction', () => {
  it('hides the values of secret query parameters and keeps the rest', () => {
    expect(redactUrl('/api/auth/callback/github?code=abc123&state=xyz&foo=bar')).toBe(
      '/api/auth/callback/github?code=%5Bredacted%5D&state=%5Bredacted%5D&foo=bar',
    );
    expect(redactUrl('/api/plants/search?q=tomato')).toBe('/api/plants/search?q=tomato');
    expect(redactUrl('/api/health/live')).toBe('/api/health/live');
  });

  it("logs a failed query's text and driver error, never its parameters", () => {
    const cause = Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' });
    const hash = '$2b$12$abcdefghijklmnopqrstuv';
    const err = Object.assign(new Error(`Failed query: insert into users values ($1)\nparams: ${hash}`), {
      name: 'DrizzleQueryError',
      query: 'insert into users values ($1)',
      params: [hash],
      cause,
    });
    const logged = serializeError(err);
    expect(JSON.stringify(logged)).not.toContain(hash);
    expect(logged).toMatchObject({
      type: 'DrizzleQueryError',
      message: 'Failed query: insert into users values ($1)',
      cause: { message: 'duplicate key value violates unique constraint', code: '23505' },
    });
  });

  it('passes other errors through with type, message and stack', () => {
    expect(serializeError(new TypeError('boom'))).toMatchObject({ type: 'TypeError', message: 'boom' });
    expect(serializeError('text')).toBe('text');
  });
});
