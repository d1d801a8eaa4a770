import { createHmac, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type Jwk, verifyIdToken } from './id-token.js';

const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const jwk = (key: KeyObject, kid: string): Jwk => ({ ...(key.export({ format: 'jwk' }) as Jwk), kid });
const KEYS = [jwk(publicKey, 'k1'), jwk(ec.publicKey, 'e1')];

const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
const NOW = 1_800_000_000;
const CLAIMS = {
  iss: 'https://issuer.example',
  aud: 'client-1',
  sub: '1234',
  nonce: 'n-1',
  iat: NOW - 10,
  exp: NOW + 300,
  email: 'ada@example.org',
  email_verified: true,
};
const EXPECT = { issuer: 'https://issuer.example', audience: 'client-1', nonce: 'n-1', now: NOW };

function rs256(claims: object, opts: { key?: KeyObject; kid?: string } = {}): string {
  const body = `${b64({ alg: 'RS256', typ: 'JWT', kid: opts.kid ?? 'k1' })}.${b64(claims)}`;
  return `${body}.${sign('sha256', Buffer.from(body), opts.key ?? privateKey).toString('base64url')}`;
}

describe('OpenID Connect ID tokens', () => {
  it('verify with the provider key and give the claims', () => {
    expect(verifyIdToken(rs256(CLAIMS), KEYS, EXPECT)).toMatchObject({ sub: '1234', email: 'ada@example.org' });
  });

  it('verify ES256 signatures too', () => {
    const body = `${b64({ alg: 'ES256', kid: 'e1' })}.${b64(CLAIMS)}`;
    const sig = sign('sha256', Buffer.from(body), { key: ec.privateKey, dsaEncoding: 'ieee-p1363' });
    expect(verifyIdToken(`${body}.${sig.toString('base64url')}`, KEYS, EXPECT).sub).toBe('1234');
  });

  it('refuse a signature by another key, or a tampered payload', () => {
    expect(() => verifyIdToken(rs256(CLAIMS, { key: other.privateKey }), KEYS, EXPECT)).toThrow(/signature/);
    const [h, , s] = rs256(CLAIMS).split('.');
    expect(() => verifyIdToken(`${h}.${b64({ ...CLAIMS, sub: 'admin' })}.${s}`, KEYS, EXPECT)).toThrow(/signature/);
  });

  it('refuse alg none and a shared-secret algorithm keyed with the public key', () => {
    expect(() => verifyIdToken(`${b64({ alg: 'none' })}.${b64(CLAIMS)}.`, KEYS, EXPECT)).toThrow(/not accepted/);
    const body = `${b64({ alg: 'HS256', kid: 'k1' })}.${b64(CLAIMS)}`;
    const pem = publicKey.export({ format: 'pem', type: 'spki' });
    const forged = `${body}.${createHmac('sha256', pem).update(body).digest('base64url')}`;
    expect(() => verifyIdToken(forged, KEYS, EXPECT)).toThrow(/not accepted/);
  });

  it('refuse an unknown key id', () => {
    expect(() => verifyIdToken(rs256(CLAIMS, { kid: 'nope' }), KEYS, EXPECT)).toThrow(/no provider key/);
  });

  it('refuse another issuer, another audience, an expired token, and a wrong or missing nonce', () => {
    expect(() => verifyIdToken(rs256({ ...CLAIMS, iss: 'https://evil.example' }), KEYS, EXPECT)).toThrow(/issuer/);
    expect(() => verifyIdToken(rs256({ ...CLAIMS, aud: 'client-2' }), KEYS, EXPECT)).toThrow(/audience/);
    expect(() => verifyIdToken(rs256({ ...CLAIMS, aud: ['client-1', 'client-2'] }), KEYS, EXPECT)).toThrow(
      /authorised party/,
    );
    expect(() => verifyIdToken(rs256({ ...CLAIMS, exp: NOW - 120 }), KEYS, EXPECT)).toThrow(/expired/);
    expect(() => verifyIdToken(rs256({ ...CLAIMS, iat: NOW + 600 }), KEYS, EXPECT)).toThrow(/future/);
    expect(() => verifyIdToken(rs256({ ...CLAIMS, nonce: 'n-2' }), KEYS, EXPECT)).toThrow(/nonce/);
    const { nonce: _n, ...withoutNonce } = CLAIMS;
    expect(() => verifyIdToken(rs256(withoutNonce), KEYS, EXPECT)).toThrow(/nonce/);
  });

  it('tolerate a small clock difference', () => {
    expect(verifyIdToken(rs256({ ...CLAIMS, exp: NOW - 30 }), KEYS, EXPECT).sub).toBe('1234');
  });
});
