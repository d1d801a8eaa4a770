import { createHmac } from 'node:crypto';
import type { ServedService } from '@rootline/bus';
import { defineSubject, plantGet } from '@rootline/contracts';
import { mintToken, TEST_JWT_SECRET } from '@rootline/testing';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { busRoute, type TypeBoxInstance } from '../src/bus-route.js';
import { bearer, serve, startTestBus, type TestBus, testGateway } from './support.js';

const PLANT_URL = '/api/plants/plt_01HZX3K6Q2W8N4B7T5R9V0C1MD';
/** A stand-in subject for an operation that only ADMIN may call. */
const userList = defineSubject({
  subject: 'accounts.user.list',
  request: Type.Object({}),
  reply: Type.Array(Type.Object({ id: Type.String() })),
  summary: 'List users',
});

let bus: TestBus;
let app: FastifyInstance;
const served: ServedService[] = [];
const seenActors: unknown[] = [];

beforeAll(async () => {
  bus = await startTestBus();
  app = await testGateway(bus);
  // A test-only domain plugin built with the same helper as the real routes.
  await app.register(
    async (scope: TypeBoxInstance) => {
      busRoute(
        scope,
        { bus: bus.gatewayBus, timeoutMs: 800 },
        {
          method: 'GET',
          url: '/users',
          summary: 'List users',
          tags: ['Admin'],
          policy: { permission: 'admin:users' },
          subject: userList,
        },
      );
    },
    { prefix: '/api/admin' },
  );
  served.push(
    await serve(bus.peer, 'plants', plantGet, async (_payload, headers) => {
      seenActors.push(headers['x-actor']);
      return { ok: false, error: { code: 'NOT_FOUND', message: 'no such plant' } };
    }),
    await serve(bus.peer, 'accounts', userList, async () => ({ ok: true, data: [{ id: 'usr_1' }] })),
  );
});
afterEach(() => {
  seenActors.length = 0;
});
afterAll(async () => {
  await Promise.all(served.map((s) => s.stop()));
  await app?.close();
  await bus?.close();
});

async function expectUnauthorized(headers: Record<string, string>, message?: RegExp) {
  const res = await app.inject({ url: PLANT_URL, headers });
  expect(res.statusCode).toBe(401);
  const body = res.json();
  expect(body).toMatchObject({ success: false, data: null, error: { code: 'UNAUTHORIZED' } });
  if (message) expect(body.error.message).toMatch(message);
  // The request never reached the service.
  expect(seenActors).toEqual([]);
}

const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');

describe('authentication', () => {
  it('accepts a valid HS256 token and reaches the service', async () => {
    const res = await app.inject({ url: PLANT_URL, headers: bearer('USER', 'usr_ok') });
    expect(res.statusCode).toBe(404);
    expect(seenActors).toEqual([JSON.stringify({ id: 'usr_ok', role: 'USER' })]);
  });

  it('refuses a request without a token', async () => {
    await expectUnauthorized({}, /Authentication required/);
  });

  it('refuses an Authorization header that is not a bearer token', async () => {
    await expectUnauthorized({ authorization: `Basic ${Buffer.from('a:b').toString('base64')}` });
  });

  it('refuses a tampered token', async () => {
    const [header, , signature] = mintToken({ role: 'USER' }).split('.');
    const payload = b64({ sub: 'usr_test', role: 'ADMIN', exp: Math.floor(Date.now() / 1000) + 3600 });
    await expectUnauthorized({ authorization: `Bearer ${header}.${payload}.${signature}` }, /invalid/);
  });

  it('refuses an expired token', async () => {
    await expectUnauthorized({ authorization: `Bearer ${mintToken({ expiresInSeconds: -10 })}` }, /expired/);
  });

  it('refuses an unsigned token (alg none)', async () => {
    await expectUnauthorized({ authorization: `Bearer ${mintToken({ alg: 'none' })}` }, /invalid/);
  });

  it('refuses a token signed with another key', async () => {
    const token = mintToken({ secret: 'another-secret-that-is-also-32-characters!' });
    await expectUnauthorized({ authorization: `Bearer ${token}` }, /invalid/);
  });

  it('refuses a token signed with another algorithm (HS512) and the right key', async () => {
    const body = `${b64({ alg: 'HS512', typ: 'JWT' })}.${b64({ sub: 'usr_test', role: 'USER', exp: Math.floor(Date.now() / 1000) + 60 })}`;
    const sig = createHmac('sha512', TEST_JWT_SECRET).update(body).digest('base64url');
    await expectUnauthorized({ authorization: `Bearer ${body}.${sig}` }, /invalid/);
  });

  it('refuses a token without the role claim or with an unknown role', async () => {
    const exp = Math.floor(Date.now() / 1000) + 60;
    const sign = (claims: object) => {
      const body = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(claims)}`;
      return `${body}.${createHmac('sha256', TEST_JWT_SECRET).update(body).digest('base64url')}`;
    };
    await expectUnauthorized({ authorization: `Bearer ${sign({ sub: 'usr_test', exp })}` }, /claims/);
    await expectUnauthorized({ authorization: `Bearer ${sign({ sub: 'usr_test', role: 'ROOT', exp })}` }, /claims/);
    await expectUnauthorized({ authorization: `Bearer ${sign({ sub: 'usr_test', role: 'USER' })}` }, /claims/);
  });

  it('protects the HEAD twin of a GET route as well', async () => {
    const res = await app.inject({ method: 'HEAD', url: PLANT_URL });
    expect(res.statusCode).toBe(401);
  });

  it('checks the token before reading the body', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/plants/register',
      headers: { 'content-type': 'application/json' },
      payload: '{not json',
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('authorisation', () => {
  it('answers 403 FORBIDDEN when the role lacks the permission', async () => {
    const res = await app.inject({ url: '/api/admin/users', headers: bearer('FARM_MANAGER') });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      success: false,
      data: null,
      error: {
        code: 'FORBIDDEN',
        message: 'Role FARM_MANAGER lacks the permission admin:users',
        details: { permission: 'admin:users' },
      },
    });
  });

  it('lets a role with the permission through', async () => {
    const res = await app.inject({ url: '/api/admin/users', headers: bearer('ADMIN') });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, data: [{ id: 'usr_1' }], error: null });
  });

  it('serves public routes without a token', async () => {
    const res = await app.inject({ url: '/api/health/live' });
    expect(res.statusCode).toBe(200);
  });
});

describe('route policy', () => {
  it('refuses to start when an /api route declares neither public nor a permission', async () => {
    const unguarded = await testGateway(bus);
    unguarded.register(
      async (scope) => {
        scope.get('/unguarded', async () => ({ oops: true }));
      },
      { prefix: '/api/plants' },
    );
    await expect(unguarded.ready()).rejects.toThrow('GET /api/plants/unguarded declares no access policy');
    await unguarded.close().catch(() => {});
  });

  it('refuses to start when a route declares both', async () => {
    const both = await testGateway(bus);
    expect(() =>
      both.get('/api/both', { config: { public: true, permission: 'plants:read' } }, async () => ({})),
    ).toThrow('GET /api/both declares both public and a permission');
    await both.close().catch(() => {});
  });
});
