import { createHash, randomBytes } from 'node:crypto';

/** A PKCE pair (RFC 7636, S256): the verifier stays with us, the challenge goes to the provider. */
export interface Pkce {
  verifier: string;
  challenge: string;
  method: 'S256';
}

/** The S256 challenge of a verifier: base64url(SHA-256(verifier)). */
export function pkceChallenge(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

/** A new verifier (43 characters from 32 random bytes) and its challenge. */
export function createPkce(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: pkceChallenge(verifier), method: 'S256' };
}

/** An unguessable value for the OAuth `state` or OIDC `nonce` parameter. */
export function randomNonce(): string {
  return randomBytes(24).toString('base64url');
}
