import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestBus, type TestBus, testGateway } from './support.js';

const LIMIT = 5;
let bus: TestBus;
let app: FastifyInstance;

beforeAll(async () => {
  bus = await startTestBus();
});
// A fresh gateway per test: each starts with full counters.
beforeEach(async () => {
  app = await testGateway(bus, { RATE_LIMIT_PER_MINUTE: String(LIMIT) });
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
