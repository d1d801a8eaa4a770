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
  webcrypto,
} from 'node:crypto';
import { type EncryptedContact, PRIVATE_KEY_SEAL_INFO } from '@rootline/contracts/plants';
import { describe, expect, it } from 'vitest';
import {
  CONTACT_KEY_INFO,
  createAnonymousIdentity,
  ed25519ToX25519PublicKey,
  encryptContact,
  generateWalletKeys,
  isEd25519PublicKey,
  sealPrivateKey,
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
      key: { kty: 'OKP', crv: 'Ed25519', d: id.privateKey!, x: id.publicKey },
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
      hkdfSync('sha256', Buffer.from(id.privateKey!, 'base64url'), Buffer.alloc(0), CONTACT_KEY_INFO, 32),
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

  it('takes a public key the client made: no private key, the contact sealed to the wallet key itself', () => {
    const mine = generateKeyPairSync('ed25519');
    const jwk = mine.privateKey.export({ format: 'jwk' });
    const id = createAnonymousIdentity({ walletPublicKey: jwk.x! });
    expect(id.privateKey).toBeNull();
    expect(id.publicKey).toBe(jwk.x);
    expect(id.walletAddress).toBe(walletAddress(Buffer.from(jwk.x!, 'base64url')));
    expect(id.contact.encrypted.algorithm).toBe('x25519-hkdf-sha256-aes-256-gcm');
    // The holder of the Ed25519 seed opens it: X25519 private key = first 32 bytes of SHA-512(seed).
    const scalar = hash('sha512', Buffer.from(jwk.d!, 'base64url'), 'buffer').subarray(0, 32);
    const x25519 = createPrivateKey({
      key: {
        kty: 'OKP',
        crv: 'X25519',
        d: scalar.toString('base64url'),
        x: ed25519ToX25519PublicKey(Buffer.from(jwk.x!, 'base64url')).toString('base64url'),
      },
      format: 'jwk',
    });
    const e = id.contact.encrypted;
    const ephemeral = createPublicKey({ key: { kty: 'OKP', crv: 'X25519', x: e.ephemeralPublicKey! }, format: 'jwk' });
    const shared = diffieHellman({ privateKey: x25519, publicKey: ephemeral });
    const key = Buffer.from(
      hkdfSync('sha256', shared, Buffer.from(e.ephemeralPublicKey!, 'base64url'), CONTACT_KEY_INFO, 32),
    );
    expect(open(key, e)).toBe(id.contact.handle);
  });

  it('maps an Ed25519 public key to the X25519 key of the same seed', () => {
    for (let i = 0; i < 20; i++) {
      const { privateKey } = generateKeyPairSync('ed25519');
      const jwk = privateKey.export({ format: 'jwk' });
      const scalar = hash('sha512', Buffer.from(jwk.d!, 'base64url'), 'buffer').subarray(0, 32);
      // Node derives the X25519 public key from the private scalar (clamped as RFC 7748 says).
      const derived = createPublicKey(
        createPrivateKey({
          key: Buffer.concat([Buffer.from('302e020100300506032b656e04220420', 'hex'), scalar]),
          format: 'der',
          type: 'pkcs8',
        }),
      ).export({ format: 'jwk' }).x;
      expect(ed25519ToX25519PublicKey(Buffer.from(jwk.x!, 'base64url')).toString('base64url')).toBe(derived);
    }
  });

  it('tells an Ed25519 public key from 32 bytes that are not one', () => {
    const { publicKey } = generateKeyPairSync('ed25519');
    expect(isEd25519PublicKey(publicKey.export({ format: 'jwk' }).x!)).toBe(true);
    expect(isEd25519PublicKey('A'.repeat(42))).toBe(false);
  });

  it('seals a server-made private key to the client’s X25519 key, and WebCrypto opens it', async () => {
    const subtle = webcrypto.subtle;
    const own = (await subtle.generateKey({ name: 'X25519' }, true, ['deriveBits'])) as webcrypto.CryptoKeyPair;
    const keyEncryptionPublicKey = Buffer.from(await subtle.exportKey('raw', own.publicKey)).toString('base64url');
    const identity = createAnonymousIdentity({ keyEncryptionPublicKey });
    expect(identity.privateKey).toBeNull();
    const sealed = identity.sealedPrivateKey!;
    expect(sealed.algorithm).toBe('x25519-hkdf-sha256-aes-256-gcm');
    const b = (s: string) => Buffer.from(s, 'base64url');
    const ephemeral = await subtle.importKey('raw', b(sealed.ephemeralPublicKey), { name: 'X25519' }, false, []);
    const shared = await subtle.deriveBits({ name: 'X25519', public: ephemeral }, own.privateKey, 256);
    const aes = await subtle.deriveKey(
      { name: 'HKDF', hash: 'SHA-256', salt: b(sealed.ephemeralPublicKey), info: Buffer.from(PRIVATE_KEY_SEAL_INFO) },
      await subtle.importKey('raw', shared, 'HKDF', false, ['deriveKey']),
      { name: 'AES-GCM', length: 256 },
      false,
      ['decrypt'],
    );
    const seed = Buffer.from(
      await subtle.decrypt(
        { name: 'AES-GCM', iv: b(sealed.iv) },
        aes,
        Buffer.concat([b(sealed.ciphertext), b(sealed.tag)]),
      ),
    );
    // The seed is the wallet's: its public key is the one on record, and it opens the contact sealed to it.
    const key = createPrivateKey({
      key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]),
      format: 'der',
      type: 'pkcs8',
    });
    expect(createPublicKey(key).export({ format: 'jwk' }).x).toBe(identity.publicKey);
    expect(walletAddress(b(identity.publicKey))).toBe(identity.walletAddress);
    expect(
      open(Buffer.from(hkdfSync('sha256', seed, Buffer.alloc(0), CONTACT_KEY_INFO, 32)), identity.contact.encrypted),
    ).toBe(identity.contact.handle);
    // Another X25519 key cannot open it.
    const other = (await subtle.generateKey({ name: 'X25519' }, true, ['deriveBits'])) as webcrypto.CryptoKeyPair;
    const wrong = await subtle.deriveBits({ name: 'X25519', public: ephemeral }, other.privateKey, 256);
    const wrongKey = await subtle.deriveKey(
      { name: 'HKDF', hash: 'SHA-256', salt: b(sealed.ephemeralPublicKey), info: Buffer.from(PRIVATE_KEY_SEAL_INFO) },
      await subtle.importKey('raw', wrong, 'HKDF', false, ['deriveKey']),
      { name: 'AES-GCM', length: 256 },
      false,
      ['decrypt'],
    );
    await expect(
      subtle.decrypt(
        { name: 'AES-GCM', iv: b(sealed.iv) },
        wrongKey,
        Buffer.concat([b(sealed.ciphertext), b(sealed.tag)]),
      ),
    ).rejects.toThrow();
  });

  it('refuses a key-encryption key that cannot agree on a secret', () => {
    expect(() => sealPrivateKey(generateWalletKeys().privateKey, 'A'.repeat(43))).toThrow(UnusableKeyError);
  });
});
