import { SESSION_TTL_SECONDS } from '@rootline/contracts';
import { createLogger } from '@rootline/host';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway } from '../src/app.js';
import { startTestBus, type TestBus, testConfig } from './support.js';

const DAY_MS = 24 * 3600 * 1000;
let bus: TestBus;
let app: FastifyInstance;
/** The gateway's clock: a year ahead of the system's, moved by the test. */
let now = Date.now() + 365 * DAY_MS;

beforeAll(async () => {
  bus = await startTestBus();
  const clock = { now: () => new Date(now) };
  app = await buildGateway({
    bus: bus.gatewayBus,
    log: createLogger('gateway', 'silent'),
    config: testConfig(),
    database: bus.database,
    clock,
  });
});
afterAll(async () => {
  await app?.close();
  await bus?.close();
});

describe("the gateway's time comes from its clock", () => {
  it('dates a session from the clock and ends it when the clock passes its expiry', async () => {
    const account = { email: 'clock@example.org', password: 'a clock passphrase', name: 'Clock' };
    expect((await app.inject({ method: 'POST', url: '/api/auth/register', payload: account })).statusCode).toBe(201);
    const { email, password } = account;
    const signin = await app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email, password } });
    expect(signin.statusCode).toBe(200);
    const { token, expiresAt } = signin.json().data;
    expect(Date.parse(expiresAt)).toBe(now + SESSION_TTL_SECONDS * 1000);

    const session = () => app.inject({ url: '/api/auth/session', headers: { authorization: `Bearer ${token}` } });
    expect((await session()).statusCode).toBe(200);
    now += SESSION_TTL_SECONDS * 1000 + DAY_MS;
    expect((await session()).statusCode).toBe(401);
  });
});
