import { createPublicKey, type JsonWebKey, verify } from 'node:crypto';
import { safeEqual } from './secrets.js';

/** A key of the provider's JWKS document. */
export interface Jwk extends JsonWebKey {
  kid?: string;
  alg?: string;
  use?: string;
}

/** What an ID token must match. */
export interface IdTokenExpectations {
  issuer: string;
  /** Our client id. */
  audience: string;
  /** The nonce we sent with the authorisation request. */
  nonce: string;
  /** Seconds since the epoch. */
  now: number;
  /** Tolerated clock difference, seconds (default 60). */
  leewaySeconds?: number;
}

/** The claims Rootline reads from a verified ID token. */
export interface IdTokenClaims {
  iss: string;
  sub: string;
  aud: string | string[];
  exp: number;
  iat?: number;
  nonce?: string;
  email?: string;
  email_verified?: boolean | string;
  name?: string;
}

/** Signature algorithms accepted for ID tokens: asymmetric only, so `none` and HS* confusion are impossible. */
const ALGORITHMS: Record<string, { hash: string; kty: string; dsaEncoding?: 'ieee-p1363' }> = {
  RS256: { hash: 'sha256', kty: 'RSA' },
  RS384: { hash: 'sha384', kty: 'RSA' },
  RS512: { hash: 'sha512', kty: 'RSA' },
  ES256: { hash: 'sha256', kty: 'EC', dsaEncoding: 'ieee-p1363' },
  ES384: { hash: 'sha384', kty: 'EC', dsaEncoding: 'ieee-p1363' },
};

function decodePart(part: string | undefined, what: string): Record<string, unknown> {
  if (!part) throw new Error(`ID token has no ${what}`);
  try {
    const value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // Reported below.
  }
  throw new Error(`ID token ${what} is not a JSON object`);
}

/**
 * Verifies an OpenID Connect ID token (compact JWS) against the provider's keys and our expectations:
 * signature (RS256/384/512, ES256/384; never `none` or a shared-secret algorithm), issuer, audience
 * (and `azp` when there are several), expiry and issue time with a small leeway, and the nonce.
 * Returns the claims or throws an Error saying what failed.
 */
export function verifyIdToken(token: string, keys: readonly Jwk[], expect: IdTokenExpectations): IdTokenClaims {
  const parts = token.split('.');
  if (parts.length !== 3) throw new Error('ID token is not a compact JWS');
  const [h, p, s] = parts as [string, string, string];
  const header = decodePart(h, 'header');
  const alg = typeof header.alg === 'string' ? header.alg : '';
  const spec = ALGORITHMS[alg];
  if (!spec) throw new Error(`ID token algorithm ${alg || '(none)'} is not accepted`);
  const kid = typeof header.kid === 'string' ? header.kid : undefined;
  const candidates = keys.filter(
    (k) => k.kty === spec.kty && (kid === undefined || k.kid === kid) && (k.use === undefined || k.use === 'sig'),
  );
  if (candidates.length === 0) throw new Error(`no provider key ${kid ?? ''} for ${alg}`.replace('  ', ' '));
  const data = Buffer.from(`${h}.${p}`);
  const signature = Buffer.from(s, 'base64url');
  const valid = candidates.some((jwk) => {
    try {
      const key = createPublicKey({ key: jwk, format: 'jwk' });
      return verify(spec.hash, data, spec.dsaEncoding ? { key, dsaEncoding: spec.dsaEncoding } : key, signature);
    } catch {
      return false;
    }
  });
  if (!valid) throw new Error('ID token signature is invalid');

  const claims = decodePart(p, 'payload') as unknown as IdTokenClaims;
  const leeway = expect.leewaySeconds ?? 60;
  if (claims.iss !== expect.issuer) throw new Error('ID token issuer does not match');
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!audiences.includes(expect.audience)) throw new Error('ID token audience does not match');
  const azp = (claims as { azp?: unknown }).azp;
  if (audiences.length > 1 && azp !== expect.audience) throw new Error('ID token authorised party does not match');
  if (typeof claims.exp !== 'number' || claims.exp + leeway < expect.now) throw new Error('ID token has expired');
  if (typeof claims.iat === 'number' && claims.iat - leeway > expect.now)
    throw new Error('ID token is issued in the future');
  if (typeof claims.sub !== 'string' || claims.sub === '') throw new Error('ID token has no subject');
  if (typeof claims.nonce !== 'string' || !safeEqual(claims.nonce, expect.nonce))
    throw new Error('ID token nonce does not match');
  return claims;
}
