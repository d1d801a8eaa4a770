import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { seedSession, startTestBus, type TestBus, testGateway } from './support.js';

const LIMIT = 5;
let bus: TestBus;
let app: FastifyInstance;

beforeAll(async () => {
  bus = await startTestBus();
});
// A fresh gateway per test: each starts with full counters.
beforeEach(async () => {
  app = await testGateway(bus, { RATE_LIMIT_ANONYMOUS_PER_MINUTE: String(LIMIT) });
  // Start-up (migrations) happens before the first window opens.
  await app.ready();
});
afterEach(async () => {
  await app.close();
});
afterAll(async () => {
  await bus?.close();
});

/** A cheap limited route: the OpenAPI document. */
const hit = () => app.inject({ url: '/api/openapi.json' });

describe('rate limiting', () => {
  it('sends X-RateLimit-Limit, -Remaining and a Reset that is a Unix time in seconds within the minute', async () => {
    const before = Math.floor(Date.now() / 1000);
    const res = await hit();
    // Bounded by the time after the answer too: the first request may take over a second on a loaded machine.
    const after = Math.ceil(Date.now() / 1000);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-ratelimit-limit']).toBe(String(LIMIT));
    expect(res.headers['x-ratelimit-remaining']).toBe(String(LIMIT - 1));
    const reset = Number(res.headers['x-ratelimit-reset']);
    expect(Number.isInteger(reset)).toBe(true);
    expect(reset).toBeGreaterThanOrEqual(before + 60);
    expect(reset).toBeLessThanOrEqual(after + 60);
  });

  it('answers the request over the limit with 429 RATE_LIMITED in the envelope and Retry-After', async () => {
    for (let i = 0; i < LIMIT; i++) expect((await hit()).statusCode).toBe(200);
    const res = await hit();
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ success: false, data: null, error: { code: 'RATE_LIMITED' } });
    expect(res.headers['x-ratelimit-remaining']).toBe('0');
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const reset = Number(res.headers['x-ratelimit-reset']);
    expect(reset).toBeGreaterThan(Math.floor(Date.now() / 1000));
    expect(res.headers['x-request-id']).toBeDefined();
  });

  it('limits per client IP', async () => {
    for (let i = 0; i <= LIMIT; i++) await hit();
    const other = await app.inject({ url: '/api/openapi.json', remoteAddress: '10.0.0.2' });
    expect(other.statusCode).toBe(200);
  });

  it('counts unknown routes and protected routes before authentication', async () => {
    for (let i = 0; i < LIMIT; i++) await app.inject({ url: '/api/plants/plt_01HZX3K6Q2W8N4B7T5R9V0C1MD' });
    expect((await app.inject({ url: '/api/plants/plt_01HZX3K6Q2W8N4B7T5R9V0C1MD' })).statusCode).toBe(429);
    expect((await app.inject({ url: '/api/unknown' })).statusCode).toBe(429);
  });

  it('does not limit the health probes or the metrics endpoint', async () => {
    for (let i = 0; i <= LIMIT; i++) await hit();
    expect((await hit()).statusCode).toBe(429);
    for (let i = 0; i < LIMIT * 2; i++) {
      const live = await app.inject({ url: '/api/health/live' });
      expect(live.statusCode).toBe(200);
      expect(live.headers['x-ratelimit-limit']).toBeUndefined();
    }
    const metrics = await app.inject({ url: '/api/metrics' });
    expect(metrics.statusCode).toBe(200);
    expect(metrics.headers['x-ratelimit-limit']).toBeUndefined();
  });
});

/** The web app's session cookie of a live session of account `sub`. */
async function sessionCookie(sub: string): Promise<string> {
  const { token } = await seedSession(bus.database, 'USER', sub);
  return `rootline_session=${token}`;
}

describe('budgets per kind of client', () => {
  /** A gateway with the documented defaults, except where a test names a setting. */
  async function withGateway(env: Record<string, string>, fn: (gw: FastifyInstance) => Promise<void>) {
    const gw = await testGateway(bus, env);
    try {
      await gw.ready();
      await fn(gw);
    } finally {
      await gw.close();
    }
  }

  it('lets a person browsing with the session cookie open a page every two seconds without meeting a limit', async () => {
    // The per-user hourly limit of API clients is tiny here: a browsing session is not counted against it.
    await withGateway({ RATE_LIMIT_PER_HOUR_PER_USER: '20' }, async (gw) => {
      const cookie = await sessionCookie('usr_browsing');
      // One minute of browsing at a page every two seconds, each page at its budget of ten reads, from an address
      // shared with others (the session is the key, not the address).
      let lowest = Number.POSITIVE_INFINITY;
      for (let page = 0; page < 30; page++) {
        const reads = await Promise.all(
          Array.from({ length: 10 }, () =>
            gw.inject({ url: '/api/auth/session', headers: { cookie }, remoteAddress: '10.9.0.1' }),
          ),
        );
        for (const res of reads) {
          expect(res.statusCode).toBe(200);
          lowest = Math.min(lowest, Number(res.headers['x-ratelimit-remaining']));
        }
      }
      // 300 of the 600 a minute used: the budget holds twice this pace, and the window starts again each minute.
      expect(lowest).toBe(300);
      // The address itself still has its whole anonymous budget.
      const anonymous = await gw.inject({ url: '/api/openapi.json', remoteAddress: '10.9.0.1' });
      expect(anonymous.headers['x-ratelimit-limit']).toBe('300');
      expect(anonymous.headers['x-ratelimit-remaining']).toBe('299');
    });
  });

  it('counts each browser session apart and answers a spent one with 429 and Retry-After, not a sign-out', async () => {
    await withGateway({ RATE_LIMIT_SESSION_PER_MINUTE: '3' }, async (gw) => {
      const first = await sessionCookie('usr_first');
      const second = await sessionCookie('usr_second');
      for (let i = 0; i < 3; i++) {
        expect((await gw.inject({ url: '/api/auth/session', headers: { cookie: first } })).statusCode).toBe(200);
      }
      const limited = await gw.inject({ url: '/api/auth/session', headers: { cookie: first } });
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toMatchObject({
        error: { code: 'RATE_LIMITED', details: { retryAfterSeconds: expect.any(Number) } },
      });
      expect(limited.json().error.message).toMatch(/3 requests per minute per session/);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      // Another session from the same address is not affected.
      const other = await gw.inject({ url: '/api/auth/session', headers: { cookie: second } });
      expect(other.statusCode).toBe(200);
      expect(other.headers['x-ratelimit-remaining']).toBe('2');
    });
  });

  it('counts a forged or expired session cookie against the address, as an anonymous visitor', async () => {
    await withGateway({ RATE_LIMIT_ANONYMOUS_PER_MINUTE: '2', RATE_LIMIT_SESSION_PER_MINUTE: '50' }, async (gw) => {
      const { token } = await seedSession(bus.database, 'USER', 'usr_forger');
      const [h, p] = token.split('.');
      const forged = `rootline_session=${h}.${p}.${'A'.repeat(43)}`;
      const expired = `rootline_session=${(await seedSession(bus.database, 'USER', 'usr_late', -10)).token}`;
      for (const cookie of [forged, expired]) {
        const res = await gw.inject({ url: '/api/openapi.json', headers: { cookie }, remoteAddress: '10.9.1.1' });
        expect(res.headers['x-ratelimit-limit']).toBe('2');
      }
      const third = await gw.inject({
        url: '/api/openapi.json',
        headers: { cookie: forged },
        remoteAddress: '10.9.1.1',
      });
      expect(third.statusCode).toBe(429);
      expect(third.json().error.message).toMatch(/from this address/);
    });
  });

  it('keeps the API clients at the per-address and per-user limits', async () => {
    await withGateway({ RATE_LIMIT_PER_MINUTE: '3', RATE_LIMIT_PER_HOUR_PER_USER: '1000' }, async (gw) => {
      const headers = await bus.bearer('USER', 'usr_script');
      for (let i = 0; i < 3; i++) {
        const res = await gw.inject({ url: '/api/auth/session', headers, remoteAddress: '10.9.2.1' });
        expect(res.statusCode).toBe(200);
        expect(res.headers['x-ratelimit-limit']).toBe('3');
      }
      expect((await gw.inject({ url: '/api/auth/session', headers, remoteAddress: '10.9.2.1' })).statusCode).toBe(429);
      // A bearer token is judged as an API client even with a session cookie beside it.
      const cookie = await sessionCookie('usr_script');
      const both = await gw.inject({
        url: '/api/auth/session',
        headers: { ...headers, cookie },
        remoteAddress: '10.9.2.1',
      });
      expect(both.statusCode).toBe(429);
      // The anonymous budget of that address is counted apart.
      expect((await gw.inject({ url: '/api/openapi.json', remoteAddress: '10.9.2.1' })).statusCode).toBe(200);
    });
  });

  it('never limits the pages of the web app (GET outside /api)', async () => {
    await withGateway({ RATE_LIMIT_ANONYMOUS_PER_MINUTE: '2' }, async (gw) => {
      for (let i = 0; i < 5; i++) {
        const res = await gw.inject({ url: `/plants/plt_${i}`, remoteAddress: '10.9.3.1' });
        expect(res.statusCode).not.toBe(429);
        expect(res.headers['x-ratelimit-limit']).toBeUndefined();
      }
    });
  });
});
