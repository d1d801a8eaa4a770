import { createCipheriv, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  isSealed,
  isSealedUnderCurrent,
  keyringOf,
  openSecret,
  sealedKeyId,
  sealSecret,
  secretKey,
  secretKeyId,
} from './secret-box.js';

const ring = keyringOf(randomBytes(32));
const SECRET = 'a-long-random-shared-secret-0123456789';

/** Flips one bit of a base64url part of a sealed value. */
function flip(sealed: string, part: 2 | 3 | 4): string {
  const parts = sealed.split(':');
  const bytes = Buffer.from(parts[part] as string, 'base64url');
  bytes[0] = (bytes[0] as number) ^ 1;
  parts[part] = bytes.toString('base64url');
  return parts.join(':');
}

/** A value in the v1 form (no key id), as versions before key ids wrote it. */
function sealV1(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), ct.toString('base64url'), cipher.getAuthTag().toString('base64url')].join(
    ':',
  );
}

describe('secret box', () => {
  it('seals to v2:<key id>:<iv>:<ciphertext>:<tag> without the secret, and opens back', () => {
    const sealed = sealSecret(ring, SECRET);
    expect(sealed).toMatch(/^v2:[A-Za-z0-9_-]{11}:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]+:[A-Za-z0-9_-]{22}$/);
    expect(sealedKeyId(sealed)).toBe(ring.current.id);
    expect(isSealedUnderCurrent(ring, sealed)).toBe(true);
    expect(sealed).not.toContain(SECRET);
    expect(isSealed(sealed)).toBe(true);
    expect(openSecret(ring, sealed)).toBe(SECRET);
  });

  it('names a key by 8 bytes of its SHA-256, the same for the same key', () => {
    const key = randomBytes(32);
    expect(secretKeyId(key)).toMatch(/^[A-Za-z0-9_-]{11}$/);
    expect(secretKeyId(Buffer.from(key))).toBe(secretKeyId(key));
    expect(secretKeyId(randomBytes(32))).not.toBe(secretKeyId(key));
  });

  it('uses a fresh IV each time', () => {
    expect(sealSecret(ring, SECRET)).not.toBe(sealSecret(ring, SECRET));
  });

  it('refuses a changed IV, ciphertext or tag, and names an unknown key id', () => {
    const sealed = sealSecret(ring, SECRET);
    for (const part of [2, 3, 4] as const) expect(() => openSecret(ring, flip(sealed, part))).toThrow(/altered/);
    expect(() => openSecret(keyringOf(randomBytes(32)), sealed)).toThrow(
      new RegExp(`key ${ring.current.id}.*WEBHOOK_SECRET_KEYS_PREVIOUS`),
    );
  });

  it('opens a secret sealed under an earlier key of the ring, which is then not current', () => {
    const old = randomBytes(32);
    const sealedOld = sealSecret(keyringOf(old), SECRET);
    const rotated = { current: secretKey(randomBytes(32)), previous: [secretKey(old)] };
    expect(openSecret(rotated, sealedOld)).toBe(SECRET);
    expect(isSealedUnderCurrent(rotated, sealedOld)).toBe(false);
    const resealed = sealSecret(rotated, openSecret(rotated, sealedOld));
    expect(sealedKeyId(resealed)).toBe(rotated.current.id);
    expect(openSecret(keyringOf(rotated.current.key), resealed)).toBe(SECRET);
  });

  it('opens the v1 form with whichever key of the ring sealed it', () => {
    const old = randomBytes(32);
    const v1 = sealV1(old, SECRET);
    expect(isSealed(v1)).toBe(true);
    expect(sealedKeyId(v1)).toBeUndefined();
    expect(openSecret(keyringOf(old), v1)).toBe(SECRET);
    expect(openSecret({ current: secretKey(randomBytes(32)), previous: [secretKey(old)] }, v1)).toBe(SECRET);
    expect(() => openSecret(ring, v1)).toThrow(/WEBHOOK_SECRET_KEY/);
  });

  it('answers a secret stored before sealing as it is', () => {
    expect(isSealed(SECRET)).toBe(false);
    expect(openSecret(ring, SECRET)).toBe(SECRET);
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => secretKey(randomBytes(16))).toThrow(/32 bytes/);
  });
});
