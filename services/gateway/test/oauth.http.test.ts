import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { emailVerificationRequested, userRegistered } from '@rootline/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { OAuth2Issuer, OAuth2Server, OAuth2Service } from 'oauth2-mock-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { collectEvents, type EventLog, emailLink, startTestBus, type TestBus, testGateway } from './support.js';

const PUBLIC_URL = 'http://rootline.test';

/** A GitHub-style provider: the mock's OAuth 2 endpoints at GitHub's paths, plus /user/emails. */
interface GithubMock {
  url: string;
  service: OAuth2Service;
  user: { id: number; login: string; name: string | null };
  emails: { email: string; primary: boolean; verified: boolean }[];
  tokenRequests: Record<string, string>[];
  close(): Promise<void>;
}

async function startGithubMock(): Promise<GithubMock> {
  const issuer = new OAuth2Issuer();
  await issuer.keys.generate('RS256');
  const service = new OAuth2Service(issuer, {
    authorize: '/login/oauth/authorize',
    token: '/login/oauth/access_token',
    userinfo: '/user',
  });
  const mock: GithubMock = {
    url: '',
    service,
    user: { id: 1, login: 'octo', name: 'Octo Cat' },
    emails: [],
    tokenRequests: [],
    close: async () => {},
  };
  service.on('beforeUserinfo', (res: { body: unknown }) => {
    res.body = mock.user;
  });
  service.on('beforeTokenSigning', (_token: unknown, req: { body: Record<string, string> }) => {
    mock.tokenRequests.push(req.body);
  });
  const server: Server = createServer((req, res) => {
    if (req.url?.startsWith('/user/emails')) {
      const authorised = req.headers.authorization?.startsWith('Bearer ey');
      res.writeHead(authorised ? 200 : 401, { 'content-type': 'application/json' });
      res.end(JSON.stringify(authorised ? mock.emails : { message: 'Requires authentication' }));
      return;
    }
    (service.requestHandler as (q: typeof req, s: typeof res) => void)(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  mock.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  issuer.url = mock.url;
  mock.close = () => new Promise((resolve) => server.close(() => resolve()));
  return mock;
}

let bus: TestBus;
let app: FastifyInstance;
let github: GithubMock;
let oidc: OAuth2Server;
/** Claims the OIDC provider adds to its tokens in the current test. */
let oidcClaims: Record<string, unknown>;
let registered: EventLog<typeof userRegistered>;
let verification: EventLog<typeof emailVerificationRequested>;

beforeAll(async () => {
  bus = await startTestBus();
  github = await startGithubMock();
  oidc = new OAuth2Server();
  await oidc.issuer.keys.generate('RS256');
  await oidc.start(0, '127.0.0.1');
  oidc.service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }) => {
    Object.assign(token.payload, oidcClaims);
  });
  app = await testGateway(bus, {
    PUBLIC_URL,
    GITHUB_CLIENT_ID: 'rootline-github',
    GITHUB_CLIENT_SECRET: 'github-client-secret',
    GITHUB_AUTHORIZE_URL: `${github.url}/login/oauth/authorize`,
    GITHUB_TOKEN_URL: `${github.url}/login/oauth/access_token`,
    GITHUB_API_URL: github.url,
    GOOGLE_CLIENT_ID: 'rootline-google',
    GOOGLE_CLIENT_SECRET: 'google-client-secret',
    GOOGLE_ISSUER: oidc.issuer.url!,
    AUTH_RATE_LIMIT_PER_MINUTE: '1000',
  });
  registered = await collectEvents(bus.peer, userRegistered);
  verification = await collectEvents(bus.peer, emailVerificationRequested);
});
beforeEach(() => {
  github.user = { id: 1, login: 'octo', name: 'Octo Cat' };
  github.emails = [];
  github.tokenRequests.length = 0;
  oidcClaims = {};
});
afterAll(async () => {
  await registered?.stop();
  await verification?.stop();
  await app?.close();
  await github?.close();
  await oidc?.stop();
  await bus?.close();
});

const cookie = (res: LightMyRequestResponse, name: string) => res.cookies.find((c) => c.name === name);

/** Starts a sign-in at the gateway; returns the provider URL and the state cookie. */
async function start(provider: string, callbackUrl?: string) {
  const query = callbackUrl ? `?callbackUrl=${encodeURIComponent(callbackUrl)}` : '';
  const res = await app.inject({ url: `/api/auth/signin/${provider}${query}` });
  expect(res.statusCode).toBe(302);
  const state = cookie(res, 'rootline_oauth');
  expect(state).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/api/auth/callback' });
  return { authorizeUrl: new URL(res.headers.location as string), stateCookie: state!.value };
}

/** The browser at the provider: it signs the person in and redirects back to our callback. */
async function atProvider(authorizeUrl: URL): Promise<URL> {
  const res = await fetch(authorizeUrl, { redirect: 'manual' });
  expect(res.status).toBe(302);
  return new URL(res.headers.get('location')!);
}

/** Back at our callback, with the state cookie (or another). */
const callback = (back: URL, stateCookie?: string) =>
  app.inject({
    url: `${back.pathname}${back.search}`,
    ...(stateCookie ? { cookies: { rootline_oauth: stateCookie } } : {}),
  });

async function fullFlow(provider: string, callbackUrl?: string) {
  const { authorizeUrl, stateCookie } = await start(provider, callbackUrl);
  return callback(await atProvider(authorizeUrl), stateCookie);
}

async function sessionOf(res: LightMyRequestResponse) {
  const token = cookie(res, 'rootline_session')?.value;
  expect(token).toBeTruthy();
  const session = await app.inject({ url: '/api/auth/session', cookies: { rootline_session: token! } });
  expect(session.statusCode).toBe(200);
  return session.json().data.user as { id: string; email: string; emailVerified: boolean; name: string };
}

describe('third-party providers', () => {
  it('are listed only when configured, with their callback addresses', async () => {
    const res = await app.inject({ url: '/api/auth/providers' });
    expect(res.json().data).toMatchObject({
      credentials: { type: 'credentials' },
      github: {
        id: 'github',
        type: 'oauth',
        signinUrl: '/api/auth/signin/github',
        callbackUrl: `${PUBLIC_URL}/api/auth/callback/github`,
      },
      google: { id: 'google', type: 'oidc', callbackUrl: `${PUBLIC_URL}/api/auth/callback/google` },
    });
    expect((await app.inject({ url: '/api/auth/signin/facebook' })).statusCode).toBe(404);
  });

  it('redirect to the provider with state, a PKCE S256 challenge and our callback', async () => {
    const { authorizeUrl } = await start('github');
    expect(authorizeUrl.origin + authorizeUrl.pathname).toBe(`${github.url}/login/oauth/authorize`);
    const q = authorizeUrl.searchParams;
    expect(q.get('client_id')).toBe('rootline-github');
    expect(q.get('redirect_uri')).toBe(`${PUBLIC_URL}/api/auth/callback/github`);
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(q.get('state')).toMatch(/^[\w-]{32}$/);
    const google = (await start('google')).authorizeUrl.searchParams;
    expect(google.get('scope')).toBe('openid email profile');
    expect(google.get('nonce')).toMatch(/^[\w-]{32}$/);
  });

  it('refuse a callbackUrl on another origin (no open redirect)', async () => {
    for (const bad of ['https://evil.example/', '//evil.example/x']) {
      const res = await app.inject({ url: `/api/auth/signin/github?callbackUrl=${encodeURIComponent(bad)}` });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details[0].field).toBe('querystring/callbackUrl');
    }
  });
});

describe('GitHub-style sign-in', () => {
  it('creates an account for a new person, signs them in and returns to the callbackUrl', async () => {
    github.user = { id: 101, login: 'newbie', name: 'New Grower' };
    github.emails = [
      { email: 'old@example.org', primary: false, verified: true },
      { email: 'New@Example.org', primary: true, verified: true },
    ];
    const res = await fullFlow('github', '/garden?tab=1');
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/garden?tab=1');
    expect(cookie(res, 'rootline_session')).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    // The state cookie is used up.
    expect(cookie(res, 'rootline_oauth')?.value).toBe('');
    const user = await sessionOf(res);
    expect(user).toMatchObject({ email: 'new@example.org', name: 'New Grower', emailVerified: true });
    expect(await registered.next((p) => p.userId === user.id)).toMatchObject({ method: 'github' });

    // The token request carried the verifier whose S256 hash was the challenge, and our client credentials.
    const sent = github.tokenRequests.at(-1)!;
    expect(sent).toMatchObject({ client_id: 'rootline-github', grant_type: 'authorization_code' });
    expect(sent.code_verifier).toMatch(/^[\w-]{43}$/);

    // Next time the same GitHub identity signs in to the same account.
    const again = await fullFlow('github');
    expect(again.headers.location).toBe('/');
    expect((await sessionOf(again)).id).toBe(user.id);
  });

  it('sends the PKCE verifier that matches the challenge; an injected code with another challenge fails', async () => {
    github.user = { id: 102, login: 'pkce', name: null };
    github.emails = [{ email: 'pkce@example.org', primary: true, verified: true }];
    const { authorizeUrl, stateCookie } = await start('github');
    const challenge = authorizeUrl.searchParams.get('code_challenge')!;
    const ok = await callback(await atProvider(authorizeUrl), stateCookie);
    expect(ok.statusCode).toBe(302);
    const verifier = github.tokenRequests.at(-1)!.code_verifier!;
    expect(createHash('sha256').update(verifier).digest('base64url')).toBe(challenge);

    // An attacker's code, obtained with their own PKCE challenge, slipped into this browser's callback.
    const second = await start('github');
    const attackerUrl = new URL(second.authorizeUrl);
    attackerUrl.searchParams.set(
      'code_challenge',
      createHash('sha256').update('attacker'.repeat(6)).digest('base64url'),
    );
    const res = await callback(await atProvider(attackerUrl), second.stateCookie);
    expect(res.statusCode).toBe(401);
    expect(res.json().error.details).toEqual({ reason: 'PROVIDER_ERROR' });
    expect(cookie(res, 'rootline_session')).toBeUndefined();
  });

  it('refuses a callback whose state does not match, or without the state cookie', async () => {
    github.emails = [{ email: 'state@example.org', primary: true, verified: true }];
    const { authorizeUrl, stateCookie } = await start('github');
    const back = await atProvider(authorizeUrl);
    const forged = new URL(back);
    forged.searchParams.set('state', 'x'.repeat(32));
    const mismatch = await callback(forged, stateCookie);
    expect(mismatch.statusCode).toBe(401);
    expect(mismatch.json().error.details).toEqual({ reason: 'STATE_MISMATCH' });
    const noCookie = await callback(back);
    expect(noCookie.statusCode).toBe(401);
    expect(noCookie.json().error.details).toEqual({ reason: 'STATE_MISSING' });
    // A state cookie of a sign-in with another provider does not fit either.
    const google = await start('google');
    const crossed = await callback(back, google.stateCookie);
    expect(crossed.json().error.details).toEqual({ reason: 'STATE_MISSING' });
  });

  it('reports a refusal at the provider', async () => {
    const { authorizeUrl, stateCookie } = await start('github');
    const back = new URL(authorizeUrl.searchParams.get('redirect_uri')!);
    back.searchParams.set('error', 'access_denied');
    back.searchParams.set('state', authorizeUrl.searchParams.get('state')!);
    const res = await callback(back, stateCookie);
    expect(res.statusCode).toBe(401);
    expect(res.json().error.details).toEqual({ reason: 'PROVIDER_REFUSED' });
  });

  it('refuses a person without a verified primary address', async () => {
    github.user = { id: 103, login: 'unverified', name: null };
    github.emails = [{ email: 'unverified@example.org', primary: true, verified: false }];
    const res = await fullFlow('github');
    expect(res.statusCode).toBe(401);
    expect(res.json().error.details).toEqual({ reason: 'EMAIL_NOT_VERIFIED' });
  });
});

describe('an account with the same email address', () => {
  async function registerLocal(email: string) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { email, password: 'correct horse battery staple', name: 'Local' },
    });
    return res.json().data.id as string;
  }

  it('is linked when it confirmed the address: the provider signs in to it', async () => {
    const id = await registerLocal('linked@example.org');
    const { token } = await emailLink(bus.peer, await verification.next((p) => p.userId === id));
    await app.inject({ method: 'POST', url: '/api/auth/verify-email', payload: { token } });
    github.user = { id: 201, login: 'linked', name: 'Linked' };
    github.emails = [{ email: 'linked@example.org', primary: true, verified: true }];
    const res = await fullFlow('github');
    expect(res.statusCode).toBe(302);
    expect((await sessionOf(res)).id).toBe(id);
    const links = await bus.database.db.execute(
      sql`select provider, provider_account_id from identity.oauth_accounts where user_id = ${id}`,
    );
    expect(JSON.stringify(links)).toContain('"provider_account_id":"201"');
  });

  it('is not linked while it has not confirmed the address (409), and no session starts', async () => {
    await registerLocal('squatted@example.org');
    oidcClaims = { sub: 'google-301', email: 'squatted@example.org', email_verified: true, name: 'Owner' };
    const res = await fullFlow('google');
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({ code: 'DUPLICATE', details: { reason: 'ACCOUNT_NOT_LINKED' } });
    expect(cookie(res, 'rootline_session')).toBeUndefined();
  });
});

describe('Google-style OpenID Connect sign-in', () => {
  it('verifies the ID token and creates the account from its claims', async () => {
    oidcClaims = { sub: 'google-401', email: 'oidc@example.org', email_verified: true, name: 'Open Id' };
    const res = await fullFlow('google', '/welcome');
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/welcome');
    const user = await sessionOf(res);
    expect(user).toMatchObject({ email: 'oidc@example.org', name: 'Open Id', emailVerified: true });
    expect(await registered.next((p) => p.userId === user.id)).toMatchObject({ method: 'google' });
  });

  it('refuses an ID token whose nonce is not ours', async () => {
    oidcClaims = { sub: 'google-402', email: 'nonce@example.org', email_verified: true, nonce: 'replayed' };
    const res = await fullFlow('google');
    expect(res.statusCode).toBe(401);
    expect(res.json().error.message).toMatch(/nonce/);
  });

  it('refuses an ID token for another client, or signed by a key the provider does not publish', async () => {
    oidcClaims = { sub: 'google-403', email: 'aud@example.org', email_verified: true, aud: 'another-client' };
    const aud = await fullFlow('google');
    expect(aud.statusCode).toBe(401);
    expect(aud.json().error.message).toMatch(/audience/);

    const rogue = new OAuth2Issuer();
    await rogue.keys.generate('RS256');
    rogue.url = oidc.issuer.url;
    oidcClaims = { sub: 'google-404', email: 'rogue@example.org', email_verified: true };
    const { authorizeUrl, stateCookie } = await start('google');
    const nonce = authorizeUrl.searchParams.get('nonce')!;
    const forged = await rogue.buildToken({
      scopesOrTransform: (_h: unknown, p: Record<string, unknown>) =>
        Object.assign(p, {
          sub: 'google-404',
          aud: 'rootline-google',
          nonce,
          email: 'rogue@example.org',
          email_verified: true,
        }),
    });
    oidc.service.once('beforeResponse', (res: { body: Record<string, unknown> }) => {
      res.body.id_token = forged;
    });
    const res = await callback(await atProvider(authorizeUrl), stateCookie);
    expect(res.statusCode).toBe(401);
    expect(res.json().error.message).toMatch(/key|signature/);
  });

  it('reads the address from the userinfo endpoint when the ID token carries none', async () => {
    oidcClaims = { sub: 'google-406', name: 'Info Only' };
    oidc.service.once('beforeUserinfo', (res: { body: Record<string, unknown> }) => {
      res.body = { sub: 'google-406', email: 'userinfo@example.org', email_verified: true, name: 'Info Only' };
    });
    const res = await fullFlow('google');
    expect(res.statusCode).toBe(302);
    expect(await sessionOf(res)).toMatchObject({ email: 'userinfo@example.org', emailVerified: true });

    // An answer about another person is refused.
    oidcClaims = { sub: 'google-407' };
    oidc.service.once('beforeUserinfo', (res: { body: Record<string, unknown> }) => {
      res.body = { sub: 'google-999', email: 'someone-else@example.org', email_verified: true };
    });
    const other = await fullFlow('google');
    expect(other.statusCode).toBe(401);
    expect(other.json().error.details).toEqual({ reason: 'PROVIDER_ERROR' });
    expect(cookie(other, 'rootline_session')).toBeUndefined();
  });

  it('refuses an address the provider does not vouch for', async () => {
    oidcClaims = { sub: 'google-405', email: 'maybe@example.org', email_verified: false };
    const res = await fullFlow('google');
    expect(res.statusCode).toBe(401);
    expect(res.json().error.details).toEqual({ reason: 'EMAIL_NOT_VERIFIED' });
  });
});
