import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Seals a small JSON value for a cookie with AES-256-GCM: the client can neither read it (it holds a PKCE
 * verifier and a nonce) nor change it (the authentication tag is checked on opening). `key` is 32 bytes.
 * The expiry travels inside.
 */
export function seal(key: Buffer, value: object, expiresAt: number): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(JSON.stringify({ ...value, exp: expiresAt }), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
}

/** The sealed value if it was sealed with this key, is intact and has not expired; null otherwise. */
export function open<T extends object>(key: Buffer, sealed: string | undefined, now: number): T | null {
  if (!sealed) return null;
  const raw = Buffer.from(sealed, 'base64url');
  if (raw.length <= IV_BYTES + TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    const text = Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]);
    const value = JSON.parse(text.toString('utf8')) as T & { exp?: unknown };
    if (typeof value.exp !== 'number' || value.exp <= now) return null;
    return value;
  } catch {
    // A wrong key or an altered value fails the tag check.
    return null;
  }
}
