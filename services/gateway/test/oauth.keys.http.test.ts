import { createLogger } from '@rootline/host';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { OAuth2Issuer, OAuth2Server } from 'oauth2-mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway } from '../src/app.js';
import { startTestBus, type TestBus, testConfig } from './support.js';

const PUBLIC_URL = 'http://rootline.test';
let bus: TestBus;
let app: FastifyInstance;
let oidc: OAuth2Server;
/** How far the gateway's clock runs ahead of the system's, moved by the tests. */
let ahead = 0;
/** Claims the provider adds to the tokens it signs itself. */
let providerClaims: Record<string, unknown> = {};

beforeAll(async () => {
  bus = await startTestBus();
  oidc = new OAuth2Server();
  await oidc.issuer.keys.generate('RS256', { kid: 'key-1' });
  await oidc.start(0, '127.0.0.1');
  oidc.service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }) => {
    Object.assign(token.payload, providerClaims);
  });
  app = await buildGateway({
    bus: bus.gatewayBus,
    log: createLogger('gateway', 'silent'),
    config: testConfig({
      PUBLIC_URL,
      GOOGLE_CLIENT_ID: 'rootline-google',
      GOOGLE_CLIENT_SECRET: 'google-client-secret',
      GOOGLE_ISSUER: oidc.issuer.url!,
      AUTH_RATE_LIMIT_PER_MINUTE: '1000',
    }),
    database: bus.database,
    clock: { now: () => new Date(Date.now() + ahead) },
  });
});
afterAll(async () => {
  await app?.close();
  await oidc?.stop();
  await bus?.close();
});

const cookie = (res: LightMyRequestResponse, name: string) => res.cookies.find((c) => c.name === name);

/**
 * One sign-in with Google-style OIDC. With `signer`, the provider's answer carries an ID token for the same
 * person signed by that issuer's key `kid` instead of the one the provider would sign with.
 */
async function signIn(sub: string, signer?: { issuer: OAuth2Issuer; kid: string }) {
  const started = await app.inject({ url: '/api/auth/signin/google' });
  expect(started.statusCode).toBe(302);
  const authorizeUrl = new URL(started.headers.location as string);
  const claims = { sub, aud: 'rootline-google', email: `${sub}@example.org`, email_verified: true };
  const nonce = authorizeUrl.searchParams.get('nonce')!;
  if (signer) {
    const token = await signer.issuer.buildToken({
      kid: signer.kid,
      scopesOrTransform: (_h: unknown, p: Record<string, unknown>) => Object.assign(p, claims, { nonce }),
    });
    oidc.service.once('beforeResponse', (res: { body: Record<string, unknown> }) => {
      res.body.id_token = token;
    });
  } else {
    providerClaims = claims;
  }
  const atProvider = await fetch(authorizeUrl, { redirect: 'manual' });
  const back = new URL(atProvider.headers.get('location')!);
  return app.inject({
    url: `${back.pathname}${back.search}`,
    cookies: { rootline_oauth: cookie(started, 'rootline_oauth')!.value },
  });
}

const signedIn = (res: LightMyRequestResponse) => {
  expect(res.statusCode).toBe(302);
  expect(cookie(res, 'rootline_session')?.value).toBeTruthy();
};
const refused = (res: LightMyRequestResponse, message: RegExp) => {
  expect(res.statusCode).toBe(401);
  expect(res.json().error).toMatchObject({ code: 'UNAUTHORIZED', details: { reason: 'PROVIDER_ERROR' } });
  expect(res.json().error.message).toMatch(message);
  expect(cookie(res, 'rootline_session')).toBeUndefined();
};

describe("the OIDC provider's signing keys", () => {
  it('keep sign-in working when the provider rotates to a new key', async () => {
    signedIn(await signIn('rotate-1', { issuer: oidc.issuer, kid: 'key-1' }));
    // The provider publishes a second key and signs with it from now on.
    await oidc.issuer.keys.generate('RS256', { kid: 'key-2' });
    // The keys fetched a moment ago are kept for a minute: a token naming an unknown key does not make the
    // gateway fetch them again (no refetch on every forged token)...
    refused(await signIn('rotate-2', { issuer: oidc.issuer, kid: 'key-2' }), /verification key, no applicable keys/);
    // ...after that the unknown key id makes it fetch the provider's keys again, and the new key verifies.
    ahead += 61_000;
    signedIn(await signIn('rotate-2', { issuer: oidc.issuer, kid: 'key-2' }));
    // Tokens signed with either published key are accepted.
    signedIn(await signIn('rotate-3', { issuer: oidc.issuer, kid: 'key-1' }));
    signedIn(await signIn('rotate-4', { issuer: oidc.issuer, kid: 'key-2' }));
  });

  it('refuse an ID token signed with a key id the provider does not publish, even after fetching again', async () => {
    const rogue = new OAuth2Issuer();
    rogue.url = oidc.issuer.url;
    await rogue.keys.generate('RS256', { kid: 'not-published' });
    refused(await signIn('rogue-1', { issuer: rogue, kid: 'not-published' }), /verification key, no applicable keys/);
    ahead += 61_000;
    refused(await signIn('rogue-2', { issuer: rogue, kid: 'not-published' }), /verification key, no applicable keys/);
    // The provider's own key still signs in.
    signedIn(await signIn('rogue-3'));
  });

  it('judge ID-token expiry by the gateway clock', async () => {
    // The provider's tokens live an hour; on the gateway's clock this one has expired.
    ahead += 2 * 3600_000;
    refused(await signIn('late-1'), /expiration is past/);
  });
});
