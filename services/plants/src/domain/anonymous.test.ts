import {
  createDecipheriv,
  createPrivateKey,
  createPublicKey,
  diffieHellman,
  generateKeyPairSync,
  hash,
  hkdfSync,
  sign,
  verify,
} from 'node:crypto';
import type { EncryptedContact } from '@rootline/contracts';
import { describe, expect, it } from 'vitest';
import {
  CONTACT_KEY_INFO,
  createAnonymousIdentity,
  encryptContact,
  UnusableKeyError,
  walletAddress,
} from './anonymous.js';

function open(key: Buffer, e: EncryptedContact): string {
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(e.iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(e.tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(e.ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}

describe('anonymous identity', () => {
  it('derives the wallet address from the public key, and the private key signs for it', () => {
    const id = createAnonymousIdentity({});
    expect(id.walletAddress).toBe(`rlw_${hash('sha256', Buffer.from(id.publicKey, 'base64url'), 'hex').slice(0, 40)}`);
    expect(walletAddress(Buffer.from(id.publicKey, 'base64url'))).toBe(id.walletAddress);
    const privateKey = createPrivateKey({
      key: { kty: 'OKP', crv: 'Ed25519', d: id.privateKey, x: id.publicKey },
      format: 'jwk',
    });
    const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: id.publicKey }, format: 'jwk' });
    const challenge = Buffer.from(`rootline-ownership:plt_x:${id.walletAddress}:nonce-1`);
    expect(verify(null, challenge, publicKey, sign(null, challenge, privateKey))).toBe(true);
  });

  it('gives every registration new keys and a new contact', () => {
    const a = createAnonymousIdentity({});
    const b = createAnonymousIdentity({});
    expect(a.publicKey).not.toBe(b.publicKey);
    expect(a.walletAddress).not.toBe(b.walletAddress);
    expect(a.contact.handle).not.toBe(b.contact.handle);
  });

  it('encrypts the contact under a key derived from the wallet private key by default', () => {
    const id = createAnonymousIdentity({});
    expect(id.contact.encrypted.algorithm).toBe('ed25519-seed-hkdf-sha256-aes-256-gcm');
    const key = Buffer.from(
      hkdfSync('sha256', Buffer.from(id.privateKey, 'base64url'), Buffer.alloc(0), CONTACT_KEY_INFO, 32),
    );
    expect(open(key, id.contact.encrypted)).toBe(id.contact.handle);
  });

  it('encrypts the contact to an X25519 encryption key when one is given', () => {
    const mine = generateKeyPairSync('x25519');
    const x = mine.publicKey.export({ format: 'jwk' }).x!;
    const e = encryptContact('anon-handle', { encryptionPublicKey: x, walletPrivateKey: 'unused' });
    expect(e.algorithm).toBe('x25519-hkdf-sha256-aes-256-gcm');
    const ephemeral = createPublicKey({ key: { kty: 'OKP', crv: 'X25519', x: e.ephemeralPublicKey! }, format: 'jwk' });
    const shared = diffieHellman({ privateKey: mine.privateKey, publicKey: ephemeral });
    const key = Buffer.from(
      hkdfSync('sha256', shared, Buffer.from(e.ephemeralPublicKey!, 'base64url'), CONTACT_KEY_INFO, 32),
    );
    expect(open(key, e)).toBe('anon-handle');
  });

  it('refuses an encryption key that cannot agree on a secret', () => {
    expect(() => encryptContact('h', { encryptionPublicKey: 'A'.repeat(43), walletPrivateKey: 'x' })).toThrow(
      UnusableKeyError,
    );
  });
});
