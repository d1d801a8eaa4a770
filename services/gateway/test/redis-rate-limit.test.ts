import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedSession, startTestBus, type TestBus, testGateway } from './support.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PASSWORD = 'correct horse battery staple';
let bus: TestBus;
let redis: Redis;
const prefixes: string[] = [];

beforeAll(async () => {
  bus = await startTestBus();
  redis = new Redis(REDIS_URL);
});
afterAll(async () => {
  // Remove every key the gateways of this file wrote.
  for (const prefix of prefixes) {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
  }
  await redis?.quit();
  await bus?.close();
});

/** Two gateway replicas, with Redis (one key prefix unique to the test) or without. */
async function replicas(env: Record<string, string>, shared: boolean): Promise<[FastifyInstance, FastifyInstance]> {
  const prefix = `rootline-test-${randomBytes(6).toString('hex')}:`;
  prefixes.push(prefix);
  const redisEnv: Record<string, string> = shared ? { REDIS_URL, REDIS_KEY_PREFIX: prefix } : {};
  const a = await testGateway(bus, { ...env, ...redisEnv });
  const b = await testGateway(bus, { ...env, ...redisEnv });
  await Promise.all([a.ready(), b.ready()]);
  return [a, b];
}

describe('rate limits shared through Redis', () => {
  it('counts requests of one client across two gateway replicas', async () => {
    const [a, b] = await replicas({ RATE_LIMIT_ANONYMOUS_PER_MINUTE: '4' }, true);
    try {
      const hit = (app: FastifyInstance) => app.inject({ url: '/api/openapi.json', remoteAddress: '10.3.0.1' });
      expect((await hit(a)).headers['x-ratelimit-remaining']).toBe('3');
      expect((await hit(b)).headers['x-ratelimit-remaining']).toBe('2');
      expect((await hit(a)).statusCode).toBe(200);
      expect((await hit(b)).statusCode).toBe(200);
      const limited = await hit(a);
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error.code).toBe('RATE_LIMITED');
      expect((await hit(b)).statusCode).toBe(429);
      // The counters are in Redis, under the configured prefix.
      const keys = await redis.keys(`${prefixes.at(-1)}*`);
      expect(keys).toContain(`${prefixes.at(-1)}ip:10.3.0.1`);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('counts a browser session across two gateway replicas, keyed by the session', async () => {
    const [a, b] = await replicas({ RATE_LIMIT_SESSION_PER_MINUTE: '3' }, true);
    try {
      const { token, sessionId } = await seedSession(bus.database, 'USER', 'usr_replicas');
      const hit = (app: FastifyInstance, ip: string) =>
        app.inject({ url: '/api/auth/session', headers: { cookie: `rootline_session=${token}` }, remoteAddress: ip });
      expect((await hit(a, '10.3.3.1')).headers['x-ratelimit-remaining']).toBe('2');
      expect((await hit(b, '10.3.3.2')).headers['x-ratelimit-remaining']).toBe('1');
      expect((await hit(a, '10.3.3.3')).statusCode).toBe(200);
      expect((await hit(b, '10.3.3.4')).statusCode).toBe(429);
      expect(await redis.keys(`${prefixes.at(-1)}session:*`)).toEqual([`${prefixes.at(-1)}session:${sessionId}`]);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('shares the sign-in back-off: failures on one replica make the other wait', async () => {
    const [a, b] = await replicas({}, true);
    try {
      await a.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { email: 'shared@example.org', password: PASSWORD, name: 'S' },
      });
      for (let i = 0; i < 5; i++) {
        const app = i % 2 === 0 ? a : b;
        const res = await app.inject({
          method: 'POST',
          url: '/api/auth/signin',
          payload: { email: 'shared@example.org', password: `wrong guess ${i}!!` },
          remoteAddress: `10.3.1.${i + 1}`,
        });
        expect(res.statusCode).toBe(401);
      }
      const res = await b.inject({
        method: 'POST',
        url: '/api/auth/signin',
        payload: { email: 'shared@example.org', password: PASSWORD },
        remoteAddress: '10.3.1.99',
      });
      expect(res.statusCode).toBe(429);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('shares the tighter per-IP sign-in limit across replicas', async () => {
    const [a, b] = await replicas({ AUTH_RATE_LIMIT_PER_MINUTE: '2' }, true);
    try {
      const signIn = (app: FastifyInstance, i: number) =>
        app.inject({
          method: 'POST',
          url: '/api/auth/signin',
          payload: { email: `nobody${i}@example.org`, password: PASSWORD },
          remoteAddress: '10.3.3.1',
        });
      expect((await signIn(a, 1)).statusCode).toBe(401);
      expect((await signIn(b, 2)).statusCode).toBe(401);
      const limited = await signIn(a, 3);
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error.code).toBe('RATE_LIMITED');
      expect(limited.headers['x-ratelimit-limit']).toBe('2');
      expect(limited.headers['x-ratelimit-remaining']).toBe('0');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      const reset = Number(limited.headers['x-ratelimit-reset']) - Math.floor(Date.now() / 1000);
      expect(reset).toBeGreaterThan(0);
      expect(reset).toBeLessThanOrEqual(61);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('lets requests through while Redis is away, but not sign-ins', async () => {
    const app = await testGateway(bus, { REDIS_URL: 'redis://127.0.0.1:1', RATE_LIMIT_ANONYMOUS_PER_MINUTE: '1' });
    try {
      await app.ready();
      for (let i = 0; i < 3; i++) {
        const res = await app.inject({ url: '/api/openapi.json' });
        expect(res.statusCode).toBe(200);
        expect(res.headers['x-ratelimit-limit']).toBeUndefined();
      }
      const signIn = await app.inject({
        method: 'POST',
        url: '/api/auth/signin',
        payload: { email: 'away@example.org', password: PASSWORD },
      });
      expect(signIn.statusCode).toBe(503);
      expect(signIn.json().error.code).toBe('UNAVAILABLE');
    } finally {
      await app.close();
    }
  });

  it('keeps counters per replica without Redis', async () => {
    const [a, b] = await replicas({ RATE_LIMIT_ANONYMOUS_PER_MINUTE: '2' }, false);
    try {
      const hit = (app: FastifyInstance) => app.inject({ url: '/api/openapi.json', remoteAddress: '10.3.2.1' });
      await hit(a);
      await hit(a);
      expect((await hit(a)).statusCode).toBe(429);
      expect((await hit(b)).statusCode).toBe(200);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
