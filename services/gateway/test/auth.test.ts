import { createHmac } from 'node:crypto';
import type { ServedService } from '@rootline/bus';
import { plantListOwned } from '@rootline/contracts';
import { mintToken, TEST_JWT_SECRET } from '@rootline/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { seedSession, serve, startTestBus, type TestBus, testGateway } from './support.js';

// A read that needs an account (a plant's own page is public and takes a bad credential for a visitor).
const PLANT_URL = '/api/plants/owned/usr_ok';

let bus: TestBus;
let app: FastifyInstance;
const served: ServedService[] = [];
const seenActors: unknown[] = [];

beforeAll(async () => {
  bus = await startTestBus();
  app = await testGateway(bus);
  served.push(
    await serve(bus.peer, 'plants', plantListOwned, async (_payload, headers) => {
      seenActors.push(headers['x-actor']);
      return { ok: false, error: { code: 'NOT_FOUND', message: 'no such owner' } };
    }),
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
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;
const signHs256 = (claims: object, secret = TEST_JWT_SECRET) => {
  const body = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(claims)}`;
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
};

describe('authentication', () => {
  it('accepts a token of a live session and passes the account to the service', async () => {
    const res = await app.inject({ url: PLANT_URL, headers: await bus.bearer('USER', 'usr_ok') });
    expect(res.statusCode).toBe(404);
    expect(seenActors).toEqual([JSON.stringify({ id: 'usr_ok', role: 'USER' })]);
  });

  it('refuses a request without a token', async () => {
    await expectUnauthorized({}, /Authentication required/);
  });

  it('refuses an Authorization header that is not a bearer token', async () => {
    await expectUnauthorized({ authorization: `Basic ${Buffer.from('a:b').toString('base64')}` });
  });

  it('refuses a tampered token (role raised in the payload, signature kept)', async () => {
    const { token, sessionId } = await seedSession(bus.database, 'USER', 'usr_tamper');
    const [header, , signature] = token.split('.');
    const payload = b64({ sub: 'usr_tamper', sid: sessionId, role: 'ADMIN', exp: inAnHour() });
    await expectUnauthorized({ authorization: `Bearer ${header}.${payload}.${signature}` }, /invalid/);
  });

  it('refuses an expired token even while its session lives', async () => {
    const { sessionId } = await seedSession(bus.database, 'USER', 'usr_expired');
    const token = mintToken({ sub: 'usr_expired', sid: sessionId, expiresInSeconds: -10 });
    await expectUnauthorized({ authorization: `Bearer ${token}` }, /expired/);
  });

  it('refuses an unsigned token (alg none)', async () => {
    const { sessionId } = await seedSession(bus.database, 'ADMIN', 'usr_none');
    await expectUnauthorized(
      { authorization: `Bearer ${mintToken({ sub: 'usr_none', sid: sessionId, role: 'ADMIN', alg: 'none' })}` },
      /invalid/,
    );
  });

  it('refuses a token signed with another key', async () => {
    const { sessionId } = await seedSession(bus.database, 'USER', 'usr_key');
    const token = mintToken({ sub: 'usr_key', sid: sessionId, secret: 'another-secret-that-is-also-32-characters!' });
    await expectUnauthorized({ authorization: `Bearer ${token}` }, /invalid/);
  });

  it('refuses a token signed with another algorithm (HS512) and the right key', async () => {
    const { sessionId } = await seedSession(bus.database, 'USER', 'usr_hs512');
    const claims = { sub: 'usr_hs512', sid: sessionId, role: 'USER', exp: inAnHour() };
    const body = `${b64({ alg: 'HS512', typ: 'JWT' })}.${b64(claims)}`;
    const sig = createHmac('sha512', TEST_JWT_SECRET).update(body).digest('base64url');
    await expectUnauthorized({ authorization: `Bearer ${body}.${sig}` }, /invalid/);
  });

  it('refuses a correctly signed token without a session id, a role, or an expiry', async () => {
    const { sessionId } = await seedSession(bus.database, 'USER', 'usr_claims');
    const exp = inAnHour();
    await expectUnauthorized(
      { authorization: `Bearer ${signHs256({ sub: 'usr_claims', role: 'USER', exp })}` },
      /claims/,
    );
    await expectUnauthorized(
      { authorization: `Bearer ${signHs256({ sub: 'usr_claims', sid: sessionId, exp })}` },
      /claims/,
    );
    const rootRole = signHs256({ sub: 'usr_claims', sid: sessionId, role: 'ROOT', exp });
    await expectUnauthorized({ authorization: `Bearer ${rootRole}` }, /claims/);
    const noExp = signHs256({ sub: 'usr_claims', sid: sessionId, role: 'USER' });
    await expectUnauthorized({ authorization: `Bearer ${noExp}` }, /claims/);
  });

  it('refuses a correctly signed token whose session does not exist or belongs to someone else', async () => {
    const { sessionId } = await seedSession(bus.database, 'USER', 'usr_owner');
    await expectUnauthorized(
      { authorization: `Bearer ${mintToken({ sub: 'usr_owner', sid: 'ses_00000000000000000000000000' })}` },
      /session has ended/,
    );
    await expectUnauthorized(
      { authorization: `Bearer ${mintToken({ sub: 'usr_other', sid: sessionId, role: 'ADMIN' })}` },
      /session has ended/,
    );
  });

  it('takes the role from the account, not from the token', async () => {
    const { sessionId } = await seedSession(bus.database, 'USER', 'usr_role');
    // A token claiming ADMIN for a USER's live session (as if signed before a demotion) acts as USER.
    const token = mintToken({ sub: 'usr_role', sid: sessionId, role: 'ADMIN' });
    const res = await app.inject({ url: '/api/admin/users', headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.message).toBe('Role USER lacks the permission admin:users');
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
    const res = await app.inject({ url: '/api/admin/users', headers: await bus.bearer('FARM_MANAGER', 'usr_fm') });
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
    const res = await app.inject({ url: '/api/admin/users', headers: await bus.bearer('ADMIN', 'usr_admin') });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((u: { id: string }) => u.id)).toContain('usr_admin');
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

  it('refuses to start when an /api route declares no object rule', async () => {
    const unruled = await testGateway(bus);
    unruled.register(
      async (scope) => {
        scope.get('/unruled', { config: { permission: 'plants:read' } }, async () => ({ oops: true }));
      },
      { prefix: '/api/plants' },
    );
    await expect(unruled.ready()).rejects.toThrow('GET /api/plants/unruled declares no object rule');
    await unruled.close().catch(() => {});
  });

  it('refuses to start when a route declares both', async () => {
    const both = await testGateway(bus);
    expect(() =>
      both.get('/api/both', { config: { public: true, permission: 'plants:read' } }, async () => ({})),
    ).toThrow('GET /api/both declares both public and a permission');
    await both.close().catch(() => {});
  });
});
