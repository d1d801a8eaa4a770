import { emailVerificationRequested, SESSION_TTL_SECONDS, userRegistered } from '@rootline/contracts';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectEvents, type EventLog, emailLink, startTestBus, type TestBus, testGateway } from './support.js';

const PASSWORD = 'correct horse battery staple';
let bus: TestBus;
let app: FastifyInstance;
let registered: EventLog<typeof userRegistered>;
let verification: EventLog<typeof emailVerificationRequested>;

beforeAll(async () => {
  bus = await startTestBus();
  // Many sign-ins from one address in this file: the per-IP sign-in limit has a test of its own.
  app = await testGateway(bus, { AUTH_RATE_LIMIT_PER_MINUTE: '1000' });
  registered = await collectEvents(bus.peer, userRegistered);
  verification = await collectEvents(bus.peer, emailVerificationRequested);
});
afterAll(async () => {
  await registered?.stop();
  await verification?.stop();
  await app?.close();
  await bus?.close();
});

const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url, payload, headers });
const register = (email: string, password = PASSWORD, name = 'Ada Grower') =>
  post('/api/auth/register', { email, password, name });
const signIn = (email: string, password = PASSWORD) => post('/api/auth/signin', { email, password });
const cookieOf = (res: LightMyRequestResponse) => res.cookies.find((c) => c.name === 'rootline_session');
const decode = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString());

describe('registration', () => {
  it('creates an account (201) with the USER role, never showing a password or hash, and announces it', async () => {
    const res = await register('Ada@Example.org');
    expect(res.statusCode).toBe(201);
    const { data } = res.json();
    expect(data).toEqual({
      id: expect.stringMatching(/^usr_[0-9A-Z]{26}$/),
      email: 'ada@example.org',
      name: 'Ada Grower',
      role: 'USER',
      emailVerified: false,
      locale: null,
      createdAt: expect.any(String),
    });
    expect(res.body).not.toContain(PASSWORD);
    expect(res.body).not.toMatch(/\$2[aby]\$|\$argon2/);
    expect(await registered.next((p) => p.userId === data.id)).toMatchObject({
      email: 'ada@example.org',
      name: 'Ada Grower',
      method: 'password',
    });
    const request = await verification.next((p) => p.userId === data.id);
    expect(request).not.toHaveProperty('token');
    const link = await emailLink(bus.peer, request);
    expect(link.token).toMatch(/^[\w-]{43}$/);
    expect(link.linkPath).toBe(`/verify-email?token=${link.token}`);
    expect(Date.parse(link.expiresAt) - Date.now()).toBeGreaterThan(23 * 3600 * 1000);
  });

  it('answers 409 DUPLICATE for an address already registered, whatever its case', async () => {
    const res = await register('ADA@example.ORG');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ success: false, data: null, error: { code: 'DUPLICATE' } });
  });

  it('answers 400 VALIDATION_ERROR naming the field for a password that breaks the policy', async () => {
    for (const [password, reason, code] of [
      // The length rule is in the schema (clients can read it in the OpenAPI document); the rest is the policy's,
      // each with its stable reason (ADR 260).
      ['short', 'must NOT have fewer than 10 characters', undefined],
      ['password123', 'is too common', 'password-common'],
      ['x'.repeat(73), 'must be at most 72 bytes long (UTF-8)', 'password-too-long'],
      ['grace.hopper', 'must not be the email address', 'password-is-email'],
    ] as const) {
      const res = await register('grace.hopper@example.org', password);
      expect(res.statusCode, password).toBe(400);
      expect(res.json().error).toEqual({
        code: 'VALIDATION_ERROR',
        message: `body/password ${reason}`,
        details: [{ field: 'body/password', message: reason, ...(code ? { reason: code } : {}) }],
      });
    }
  });

  it('answers 400 naming the field for a bad email, a missing name, an unknown field, and never a 500', async () => {
    const badEmail = await register('not-an-email');
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.json().error.details[0].field).toBe('body/email');
    const noName = await post('/api/auth/register', { email: 'x@example.org', password: PASSWORD });
    expect(noName.json().error.message).toBe('body/name is required');
    const extra = await post('/api/auth/register', {
      email: 'x@example.org',
      password: PASSWORD,
      name: 'X',
      role: 'ADMIN',
    });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().error.message).toBe('body/role is not an accepted property');
    const wrongType = await post('/api/auth/register', { email: 42, password: [], name: {} });
    expect(wrongType.statusCode).toBe(400);
    const notJson = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(notJson.statusCode).toBe(400);
  });
});

describe('sign-in', () => {
  it('answers 200 with a 30-day session token, the user, and the same session as an HttpOnly Lax cookie', async () => {
    const res = await signIn('ada@example.org');
    expect(res.statusCode).toBe(200);
    const { token, expiresAt, user } = res.json().data;
    expect(user.email).toBe('ada@example.org');
    const claims = decode(token);
    expect(claims).toMatchObject({ sub: user.id, sid: expect.stringMatching(/^ses_/), role: 'USER' });
    expect(claims.exp).toBe(Math.floor(Date.parse(expiresAt) / 1000));
    expect(claims.exp - Math.floor(Date.now() / 1000)).toBeGreaterThan(SESSION_TTL_SECONDS - 60);
    expect(claims.exp - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(SESSION_TTL_SECONDS);
    const cookie = cookieOf(res);
    expect(cookie).toMatchObject({ value: token, httpOnly: true, sameSite: 'Lax', path: '/api' });
    // Plain HTTP: not Secure (a browser would not send it back otherwise).
    expect(cookie?.secure).toBeUndefined();
    expect(res.body).not.toContain(PASSWORD);
  });

  it('answers the same 401 for a wrong password and for an unknown address', async () => {
    const wrong = await signIn('ada@example.org', 'not the right password');
    const unknown = await signIn('nobody@example.org');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().error).toEqual({
      code: 'UNAUTHORIZED',
      message: 'Email or password is incorrect',
      details: { reason: 'bad-credentials' },
    });
  });

  it('marks the cookie Secure when served over TLS (behind a proxy that says so)', async () => {
    const proxied = await testGateway(bus, { TRUST_PROXY: 'true' });
    try {
      const res = await proxied.inject({
        method: 'POST',
        url: '/api/auth/signin',
        payload: { email: 'ada@example.org', password: PASSWORD },
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(res.statusCode).toBe(200);
      expect(cookieOf(res)?.secure).toBe(true);
    } finally {
      await proxied.close();
    }
  });
});

describe('session', () => {
  it('is read with the bearer token and with the cookie', async () => {
    const { token, user } = (await signIn('ada@example.org')).json().data;
    const byBearer = await app.inject({ url: '/api/auth/session', headers: { authorization: `Bearer ${token}` } });
    expect(byBearer.statusCode).toBe(200);
    expect(byBearer.json().data).toMatchObject({ user: { id: user.id }, credential: 'session' });
    const byCookie = await app.inject({ url: '/api/auth/session', cookies: { rootline_session: token } });
    expect(byCookie.statusCode).toBe(200);
    expect(byCookie.json().data.user.id).toBe(user.id);
  });

  it('ends on sign-out: the token and the cookie stop working at once', async () => {
    const { token } = (await signIn('ada@example.org')).json().data;
    const auth = { authorization: `Bearer ${token}` };
    const out = await app.inject({ method: 'POST', url: '/api/auth/signout', headers: auth });
    expect(out.statusCode).toBe(200);
    expect(out.json().data).toEqual({ message: 'Signed out' });
    expect(cookieOf(out)?.value).toBe('');
    const after = await app.inject({ url: '/api/auth/session', headers: auth });
    expect(after.statusCode).toBe(401);
    expect(after.json().error.message).toMatch(/session has ended/);
    const byCookie = await app.inject({ url: '/api/auth/session', cookies: { rootline_session: token } });
    expect(byCookie.statusCode).toBe(401);
  });

  it('ends only the session signed out, not the account’s others', async () => {
    const one = (await signIn('ada@example.org')).json().data.token;
    const two = (await signIn('ada@example.org')).json().data.token;
    await app.inject({ method: 'POST', url: '/api/auth/signout', headers: { authorization: `Bearer ${one}` } });
    const still = await app.inject({ url: '/api/auth/session', headers: { authorization: `Bearer ${two}` } });
    expect(still.statusCode).toBe(200);
  });
});

describe('CSRF protection of cookie-authenticated requests', () => {
  it('refuses a state-changing request by cookie without the CSRF token (403)', async () => {
    const { token } = (await signIn('ada@example.org')).json().data;
    const res = await app.inject({ method: 'POST', url: '/api/auth/signout', cookies: { rootline_session: token } });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatchObject({ code: 'FORBIDDEN', details: { reason: 'CSRF' } });
    // Still signed in: the forged request did nothing.
    const session = await app.inject({ url: '/api/auth/session', cookies: { rootline_session: token } });
    expect(session.statusCode).toBe(200);
  });

  it("refuses another session's CSRF token and accepts the session's own", async () => {
    const mine = (await signIn('ada@example.org')).json().data.token;
    const theirs = (await signIn('ada@example.org')).json().data.token;
    const csrfOf = async (t: string) =>
      (await app.inject({ url: '/api/auth/csrf', cookies: { rootline_session: t } })).json().data.csrfToken as string;
    const myCsrf = await csrfOf(mine);
    const theirCsrf = await csrfOf(theirs);
    expect(myCsrf).toMatch(/^[\w-]{43}$/);
    expect(theirCsrf).not.toBe(myCsrf);

    const forged = await app.inject({
      method: 'POST',
      url: '/api/auth/signout',
      cookies: { rootline_session: mine },
      headers: { 'x-csrf-token': theirCsrf },
    });
    expect(forged.statusCode).toBe(403);
    const genuine = await app.inject({
      method: 'POST',
      url: '/api/auth/signout',
      cookies: { rootline_session: mine },
      headers: { 'x-csrf-token': myCsrf },
    });
    expect(genuine.statusCode).toBe(200);
  });

  it('needs no CSRF token for GET by cookie nor for bearer requests, and gives none without a session', async () => {
    const { token } = (await signIn('ada@example.org')).json().data;
    const get = await app.inject({ url: '/api/auth/tokens', cookies: { rootline_session: token } });
    expect(get.statusCode).toBe(200);
    const anonymous = await app.inject({ url: '/api/auth/csrf' });
    expect(anonymous.json().data).toEqual({ csrfToken: null });
    expect(anonymous.headers['cache-control']).toBe('no-store');
    const bearer = await app.inject({
      method: 'POST',
      url: '/api/auth/signout',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(bearer.statusCode).toBe(200);
  });
});

describe('providers', () => {
  it('lists email and password only when no third-party provider is configured', async () => {
    const res = await app.inject({ url: '/api/auth/providers' });
    expect(res.json().data).toEqual({
      credentials: {
        id: 'credentials',
        name: 'Email and password',
        type: 'credentials',
        signinUrl: '/api/auth/signin',
        callbackUrl: '/api/auth/signin',
      },
    });
    const github = await app.inject({ url: '/api/auth/signin/github' });
    expect(github.statusCode).toBe(404);
    expect(github.json().error.code).toBe('NOT_FOUND');
  });
});
