import { describe, expect, it } from 'vitest';
import { createPkce, pkceChallenge, randomNonce } from './pkce.js';

describe('PKCE', () => {
  it('derives the S256 challenge of RFC 7636, appendix B', () => {
    expect(pkceChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  it('makes verifiers of 43 unreserved characters with their challenge', () => {
    const pkce = createPkce();
    expect(pkce.verifier).toMatch(/^[A-Za-z0-9\-._~]{43,128}$/);
    expect(pkce.challenge).toBe(pkceChallenge(pkce.verifier));
    expect(pkce.method).toBe('S256');
    expect(createPkce().verifier).not.toBe(pkce.verifier);
  });

  it('makes unguessable state and nonce values', () => {
    expect(randomNonce()).toMatch(/^[\w-]{32}$/);
    expect(randomNonce()).not.toBe(randomNonce());
  });
});
