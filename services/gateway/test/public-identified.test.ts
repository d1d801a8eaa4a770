import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedSession, startTestBus, type TestBus, testGateway } from './support.js';

let bus: TestBus;
let app: FastifyInstance;

beforeAll(async () => {
  bus = await startTestBus();
  app = await testGateway(bus);
  // A public read that names its caller when a credential comes along, as the plant and listing reads do.
  app.get(
    '/api/test/who',
    {
      schema: { hide: true },
      config: { public: true, identifiesCaller: true, object: { rule: 'none', why: 'test' } },
    },
    async (req) => ({ actor: req.actor }),
  );
  app.get(
    '/api/test/anyone',
    { schema: { hide: true }, config: { public: true, object: { rule: 'none', why: 'test' } } },
    async (req) => ({
      actor: req.actor,
    }),
  );
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await bus?.close();
});

describe('public reads that identify their caller', () => {
  it('answers a visitor as no one', async () => {
    const res = await app.inject({ url: '/api/test/who' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ actor: null });
  });

  it('names the caller of a bearer token or of the session cookie', async () => {
    const { token } = await seedSession(bus.database, 'GROWER', 'usr_identified');
    const bearer = await app.inject({ url: '/api/test/who', headers: { authorization: `Bearer ${token}` } });
    expect(bearer.json()).toEqual({ actor: { id: 'usr_identified', role: 'GROWER' } });
    const cookie = await app.inject({ url: '/api/test/who', headers: { cookie: `rootline_session=${token}` } });
    expect(cookie.json()).toEqual({ actor: { id: 'usr_identified', role: 'GROWER' } });
  });

  it('treats an invalid or ended credential as a visitor rather than refusing the read', async () => {
    const bad = await app.inject({ url: '/api/test/who', headers: { authorization: 'Bearer not-a-token' } });
    expect(bad.statusCode).toBe(200);
    expect(bad.json()).toEqual({ actor: null });
    const late = await seedSession(bus.database, 'USER', 'usr_late_reader', -5);
    const expired = await app.inject({ url: '/api/test/who', headers: { cookie: `rootline_session=${late.token}` } });
    expect(expired.statusCode).toBe(200);
    expect(expired.json()).toEqual({ actor: null });
  });

  it('marks an answer to no one in particular public and one to a named caller private', async () => {
    const visitor = await app.inject({ url: '/api/test/who' });
    expect(visitor.headers['cache-control']).toBe('public, no-cache');
    expect(visitor.headers.vary).toContain('cookie');
    const { token } = await seedSession(bus.database, 'GROWER', 'usr_cached');
    const named = await app.inject({ url: '/api/test/who', headers: { cookie: `rootline_session=${token}` } });
    expect(named.headers['cache-control']).toBe('private, no-cache');
    const bearer = await app.inject({ url: '/api/test/who', headers: { authorization: `Bearer ${token}` } });
    expect(bearer.headers['cache-control']).toBe('private, no-cache');
    // An ended credential leaves the caller anonymous: the answer is the public one.
    const bad = await app.inject({ url: '/api/test/who', headers: { authorization: 'Bearer not-a-token' } });
    expect(bad.headers['cache-control']).toBe('public, no-cache');
  });

  it('leaves other public routes anonymous, whatever the request carries', async () => {
    const { token } = await seedSession(bus.database, 'USER', 'usr_unnamed');
    const res = await app.inject({ url: '/api/test/anyone', headers: { authorization: `Bearer ${token}` } });
    expect(res.json()).toEqual({ actor: null });
  });
});
