import { createLogger } from '@rootline/host';
import { describe, expect, it } from 'vitest';
import { gatewayLogger, lazyRequestLogger, redactUrl, serializeError } from './logging.js';

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

describe('the request logger', () => {
  /** A gateway logger at `level` writing its lines into an array, and a count of the children made from it. */
  function capture(level: string) {
    const lines: Record<string, unknown>[] = [];
    const log = gatewayLogger(
      createLogger('gateway', level, { write: (line: string) => lines.push(JSON.parse(line)) }),
    );
    let children = 0;
    const child = log.child.bind(log);
    log.child = ((...args: Parameters<typeof child>) => {
      children += 1;
      return child(...args);
    }) as typeof log.child;
    return { lines, log, children: () => children };
  }

  it('makes no child logger for a request that logs nothing at an enabled level', () => {
    const { log, lines, children } = capture('warn');
    const requestLog = lazyRequestLogger(log, { requestId: 'req_1' }, {});
    requestLog.info({ req: { url: '/api/plants/plt_1' } }, 'incoming request');
    requestLog.debug('detail');
    expect(children()).toBe(0);
    expect(lines).toEqual([]);
    expect(requestLog.level).toBe('warn');
  });

  it("logs with the request's bindings and the gateway's redaction once a line is written", () => {
    const { log, lines, children } = capture('warn');
    const requestLog = lazyRequestLogger(log, { requestId: 'req_2' }, {});
    requestLog.warn({ password: 'hunter2' }, 'slow');
    requestLog.error('failed');
    expect(children()).toBe(1);
    expect(lines).toMatchObject([
      { level: 40, requestId: 'req_2', password: '[redacted]', msg: 'slow' },
      { level: 50, requestId: 'req_2', msg: 'failed' },
    ]);
  });
});
