import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isSealed, openSecret, sealSecret } from './secret-box.js';

const key = randomBytes(32);
const SECRET = 'a-long-random-shared-secret-0123456789';

/** Flips one bit of a base64url part of a sealed value. */
function flip(sealed: string, part: 1 | 2 | 3): string {
  const parts = sealed.split(':');
  const bytes = Buffer.from(parts[part] as string, 'base64url');
  bytes[0] = (bytes[0] as number) ^ 1;
  parts[part] = bytes.toString('base64url');
  return parts.join(':');
}

describe('secret box', () => {
  it('seals to v1:<iv>:<ciphertext>:<tag> without the secret, and opens back', () => {
    const sealed = sealSecret(key, SECRET);
    expect(sealed).toMatch(/^v1:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]+:[A-Za-z0-9_-]{22}$/);
    expect(sealed).not.toContain(SECRET);
    expect(isSealed(sealed)).toBe(true);
    expect(openSecret(key, sealed)).toBe(SECRET);
  });

  it('uses a fresh IV each time', () => {
    expect(sealSecret(key, SECRET)).not.toBe(sealSecret(key, SECRET));
  });

  it('refuses a changed IV, ciphertext or tag, and another key', () => {
    const sealed = sealSecret(key, SECRET);
    for (const part of [1, 2, 3] as const) expect(() => openSecret(key, flip(sealed, part))).toThrow(/altered/);
    expect(() => openSecret(randomBytes(32), sealed)).toThrow(/WEBHOOK_SECRET_KEY/);
  });

  it('answers a secret stored before sealing as it is', () => {
    expect(isSealed(SECRET)).toBe(false);
    expect(openSecret(key, SECRET)).toBe(SECRET);
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => sealSecret(randomBytes(16), SECRET)).toThrow(/32 bytes/);
  });
});
