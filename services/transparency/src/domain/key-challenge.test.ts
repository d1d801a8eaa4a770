import { generateKeyPairSync, sign, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { challengeRefusal, newChallenge, registrationMessage, registrationMessagePrefix } from './key-challenge.js';

describe('key-registration challenges', () => {
  const now = new Date('2026-05-01T12:00:00Z');
  const row = { ownerId: 'usr_alice', expiresAt: new Date('2026-05-01T12:05:00Z'), usedAt: null };

  it('are 32 random bytes in base64url, never the same twice', () => {
    const a = newChallenge();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newChallenge()).not.toBe(a);
  });

  it('name the challenge, the user and the raw public key in the message signed', () => {
    expect(registrationMessage('chal', 'usr_alice', 'KEY')).toBe('rootline-key-registration:chal:usr_alice:KEY');
    expect(registrationMessagePrefix('chal', 'usr_alice')).toBe('rootline-key-registration:chal:usr_alice:');
    // A proof for Alice's registration proves nothing for Bob's.
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const raw = publicKey.export({ format: 'jwk' }).x as string;
    const proof = sign(null, Buffer.from(registrationMessage('c', 'usr_alice', raw)), privateKey);
    expect(verify(null, Buffer.from(registrationMessage('c', 'usr_alice', raw)), publicKey, proof)).toBe(true);
    expect(verify(null, Buffer.from(registrationMessage('c', 'usr_bob', raw)), publicKey, proof)).toBe(false);
  });

  it('may be answered once, by the user they were issued to, before they expire', () => {
    expect(challengeRefusal(row, 'usr_alice', now)).toBeNull();
    expect(challengeRefusal(undefined, 'usr_alice', now)).toBe('challenge-unknown');
    expect(challengeRefusal(row, 'usr_bob', now)).toBe('challenge-not-yours');
    expect(challengeRefusal({ ...row, usedAt: now }, 'usr_alice', now)).toBe('challenge-used');
    expect(challengeRefusal(row, 'usr_alice', row.expiresAt)).toBe('challenge-expired');
  });
});
