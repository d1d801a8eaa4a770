import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** Prefix of a sealed secret: the format's version, so the key or cipher can change later. */
const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const SEALED = /^v1:([A-Za-z0-9_-]{16}):([A-Za-z0-9_-]*):([A-Za-z0-9_-]{22})$/;

/**
 * Seals a webhook secret with AES-256-GCM under `key` (32 bytes): `v1:<iv>:<ciphertext>:<tag>`, each part
 * base64url without padding, a fresh random 96-bit IV each time.
 */
export function sealSecret(key: Buffer, plain: string): string {
  if (key.length !== 32) throw new Error('the secret key must be 32 bytes');
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv.toString('base64url'), ciphertext.toString('base64url'), tag.toString('base64url')].join(':');
}

/** Whether a stored value is in the sealed form (anything else is a secret stored before sealing). */
export function isSealed(stored: string): boolean {
  return SEALED.test(stored);
}

/**
 * The plain secret of a stored value. A sealed value is opened (a wrong key or any change to IV, ciphertext or
 * tag throws); a value not in the sealed form was stored before sealing and is answered as it is.
 */
export function openSecret(key: Buffer, stored: string): string {
  const m = SEALED.exec(stored);
  if (!m) return stored;
  const [, iv, ciphertext, tag] = m as unknown as [string, string, string, string];
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), { authTagLength: TAG_BYTES });
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  try {
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new Error('a webhook secret could not be opened: wrong WEBHOOK_SECRET_KEY or altered value');
  }
}
