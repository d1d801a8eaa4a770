import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBus, type TestBus, testGateway } from './support.js';

const PASSWORD = 'correct horse battery staple';
let bus: TestBus;
let net = 0;
/** A fresh client address per call where a test is not about per-IP limits. */
const anyIp = () => `10.2.${Math.floor(net / 250)}.${(net++ % 250) + 1}`;

beforeAll(async () => {
  bus = await startTestBus();
});
afterAll(async () => {
  await bus?.close();
});

async function withGateway(env: Record<string, string>, fn: (app: FastifyInstance) => Promise<void>) {
  const app = await testGateway(bus, env);
  try {
    await app.ready();
    await fn(app);
  } finally {
    await app.close();
  }
}

const post = (app: FastifyInstance, url: string, payload: object, remoteAddress: string, headers = {}) =>
  app.inject({ method: 'POST', url, payload, remoteAddress, headers });
const signIn = (app: FastifyInstance, email: string, password: string, ip = anyIp()) =>
  post(app, '/api/auth/signin', { email, password }, ip);

function expectLimited(res: Awaited<ReturnType<FastifyInstance['inject']>>, limit: number) {
  expect(res.statusCode).toBe(429);
  expect(res.json()).toMatchObject({ success: false, data: null, error: { code: 'RATE_LIMITED' } });
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(res.headers['x-ratelimit-limit']).toBe(String(limit));
  expect(res.headers['x-ratelimit-remaining']).toBe('0');
  const reset = Number(res.headers['x-ratelimit-reset']);
  expect(Number.isInteger(reset)).toBe(true);
  expect(reset).toBeGreaterThan(Math.floor(Date.now() / 1000));
}

describe('tighter limits on the authentication routes', () => {
  it('limits sign-in, registration and forgot-password attempts per client IP', async () => {
    await withGateway({ AUTH_RATE_LIMIT_PER_MINUTE: '3' }, async (app) => {
      for (const [url, body] of [
        ['/api/auth/signin', (i: number) => ({ email: `ip${i}@example.org`, password: PASSWORD })],
        ['/api/auth/register', (i: number) => ({ email: `ipr${i}@example.org`, password: PASSWORD, name: 'R' })],
        ['/api/auth/forgot-password', (i: number) => ({ email: `ipf${i}@example.org` })],
      ] as const) {
        const ip = anyIp();
        for (let i = 0; i < 3; i++) expect((await post(app, url, body(i), ip)).statusCode, url).not.toBe(429);
        expectLimited(await post(app, url, body(3), ip), 3);
        expect((await post(app, url, body(4), anyIp())).statusCode, `${url} from elsewhere`).not.toBe(429);
      }
    });
  });

  it('limits forgot-password per address, known or not, from any IP', async () => {
    await withGateway({}, async (app) => {
      await post(app, '/api/auth/register', { email: 'known@example.org', password: PASSWORD, name: 'K' }, anyIp());
      for (const email of ['known@example.org', 'unknown@example.org']) {
        for (let i = 0; i < 3; i++)
          expect((await post(app, '/api/auth/forgot-password', { email }, anyIp())).statusCode).toBe(200);
        const limited = await post(app, '/api/auth/forgot-password', { email }, anyIp());
        expectLimited(limited, 3);
      }
    });
  });

  it('makes an address wait after 5 failed sign-ins, even with the right password', async () => {
    await withGateway({}, async (app) => {
      await post(app, '/api/auth/register', { email: 'target@example.org', password: PASSWORD, name: 'T' }, anyIp());
      for (let i = 0; i < 5; i++)
        expect((await signIn(app, 'target@example.org', `wrong guess ${i}!!`)).statusCode).toBe(401);
      const blocked = await signIn(app, 'target@example.org', PASSWORD);
      expectLimited(blocked, 5);
      const retryAfter = Number(blocked.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(25);
      expect(retryAfter).toBeLessThanOrEqual(30);
      expect(blocked.json().error.message).toMatch(/failed sign-ins/);
      // Other addresses are unaffected.
      await post(app, '/api/auth/register', { email: 'bystander@example.org', password: PASSWORD, name: 'B' }, anyIp());
      expect((await signIn(app, 'bystander@example.org', PASSWORD)).statusCode).toBe(200);
    });
  });

  it('forgets failures after a successful sign-in', async () => {
    await withGateway({}, async (app) => {
      await post(app, '/api/auth/register', { email: 'sloppy@example.org', password: PASSWORD, name: 'S' }, anyIp());
      for (let i = 0; i < 4; i++) await signIn(app, 'sloppy@example.org', `typo number ${i}!`);
      expect((await signIn(app, 'sloppy@example.org', PASSWORD)).statusCode).toBe(200);
      for (let i = 0; i < 4; i++) await signIn(app, 'sloppy@example.org', `typo again ${i}!`);
      expect((await signIn(app, 'sloppy@example.org', PASSWORD)).statusCode).toBe(200);
    });
  });

  it('makes one client IP wait after 20 failed sign-ins across addresses', async () => {
    await withGateway({ AUTH_RATE_LIMIT_PER_MINUTE: '100' }, async (app) => {
      const ip = anyIp();
      for (let i = 0; i < 20; i++)
        expect((await signIn(app, `spray${i}@example.org`, 'guess guess guess', ip)).statusCode).toBe(401);
      expectLimited(await signIn(app, 'spray99@example.org', 'guess guess guess', ip), 20);
      expect((await signIn(app, 'spray99@example.org', 'guess guess guess')).statusCode).toBe(401);
    });
  });
});

describe('the per-user limit', () => {
  it('allows RATE_LIMIT_PER_HOUR_PER_USER requests per signed-in user, from any address', async () => {
    await withGateway({ RATE_LIMIT_PER_HOUR_PER_USER: '3' }, async (app) => {
      const user = await bus.bearer('USER', 'usr_busy');
      for (let i = 0; i < 3; i++) {
        const res = await app.inject({ url: '/api/auth/session', headers: user, remoteAddress: anyIp() });
        expect(res.statusCode).toBe(200);
        // The user limit is closer to running out than the per-IP one, so the headers describe it.
        expect(res.headers['x-ratelimit-limit']).toBe('3');
        expect(res.headers['x-ratelimit-remaining']).toBe(String(2 - i));
        const reset = Number(res.headers['x-ratelimit-reset']) - Math.floor(Date.now() / 1000);
        expect(reset).toBeGreaterThan(3500);
        expect(reset).toBeLessThanOrEqual(3601);
      }
      const limited = await app.inject({ url: '/api/auth/session', headers: user, remoteAddress: anyIp() });
      expectLimited(limited, 3);
      expect(limited.json().error.message).toMatch(/3 requests per hour/);
      // Another user is counted apart.
      const other = await app.inject({ url: '/api/auth/session', headers: await bus.bearer('USER', 'usr_calm') });
      expect(other.statusCode).toBe(200);
    });
  });
});
