import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;
/** v1 (no key id; still read): `v1:<iv>:<ciphertext>:<tag>`. */
const SEALED_V1 = /^v1:([A-Za-z0-9_-]{16}):([A-Za-z0-9_-]*):([A-Za-z0-9_-]{22})$/;
/** v2 names the key it was sealed under: `v2:<key id>:<iv>:<ciphertext>:<tag>`. */
const SEALED_V2 = /^v2:([A-Za-z0-9_-]{11}):([A-Za-z0-9_-]{16}):([A-Za-z0-9_-]*):([A-Za-z0-9_-]{22})$/;

/** One AES-256 key that seals webhook secrets, with its id (published in the sealed values, never the key). */
export interface SecretKey {
  id: string;
  key: Buffer;
}

/** The key that seals new secrets, and earlier keys kept only to open (and re-seal) what they sealed. */
export interface SecretKeyring {
  current: SecretKey;
  previous: readonly SecretKey[];
}

/** A key's id: the first 8 bytes of its SHA-256, base64url (11 characters); it reveals nothing of the key. */
export function secretKeyId(key: Buffer): string {
  return createHash('sha256').update(key).digest().subarray(0, 8).toString('base64url');
}

/** A key with its id; the key must be 32 bytes. */
export function secretKey(key: Buffer): SecretKey {
  if (key.length !== 32) throw new Error('the secret key must be 32 bytes');
  return { id: secretKeyId(key), key };
}

/** A keyring of one key (no earlier keys). */
export function keyringOf(key: Buffer): SecretKeyring {
  return { current: secretKey(key), previous: [] };
}

/**
 * Seals a webhook secret with AES-256-GCM under the ring's current key: `v2:<key id>:<iv>:<ciphertext>:<tag>`,
 * each part base64url without padding, a fresh random 96-bit IV each time.
 */
export function sealSecret(ring: SecretKeyring, plain: string): string {
  const { id, key } = ring.current;
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return ['v2', id, iv.toString('base64url'), ciphertext.toString('base64url'), tag.toString('base64url')].join(':');
}

/** Whether a stored value is in a sealed form (anything else is a secret stored before sealing). */
export function isSealed(stored: string): boolean {
  return SEALED_V2.test(stored) || SEALED_V1.test(stored);
}

/** The id of the key a stored value was sealed under: known for v2, `undefined` for v1 and plain values. */
export function sealedKeyId(stored: string): string | undefined {
  return SEALED_V2.exec(stored)?.[1];
}

/** Whether a stored value is sealed under the ring's current key (nothing to re-seal). */
export function isSealedUnderCurrent(ring: SecretKeyring, stored: string): boolean {
  return sealedKeyId(stored) === ring.current.id;
}

function decrypt(key: Buffer, iv: string, ciphertext: string, tag: string): string | undefined {
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), { authTagLength: TAG_BYTES });
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  try {
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

/**
 * The plain secret of a stored value. A v2 value is opened with the ring's key of its id (an unknown id, a wrong
 * key or any change to IV, ciphertext or tag throws); a v1 value with whichever key of the ring opens it; a value
 * in no sealed form was stored before sealing and is answered as it is.
 */
export function openSecret(ring: SecretKeyring, stored: string): string {
  const v2 = SEALED_V2.exec(stored);
  if (v2) {
    const [, id, iv, ciphertext, tag] = v2 as unknown as [string, string, string, string, string];
    const found = [ring.current, ...ring.previous].find((k) => k.id === id);
    if (!found) {
      throw new Error(
        `a webhook secret is sealed under key ${id}, which is neither WEBHOOK_SECRET_KEY nor in WEBHOOK_SECRET_KEYS_PREVIOUS`,
      );
    }
    const plain = decrypt(found.key, iv, ciphertext, tag);
    if (plain === undefined) throw new Error(`a webhook secret could not be opened with key ${id}: altered value`);
    return plain;
  }
  const v1 = SEALED_V1.exec(stored);
  if (!v1) return stored;
  const [, iv, ciphertext, tag] = v1 as unknown as [string, string, string, string];
  for (const k of [ring.current, ...ring.previous]) {
    const plain = decrypt(k.key, iv, ciphertext, tag);
    if (plain !== undefined) return plain;
  }
  throw new Error('a webhook secret could not be opened: wrong WEBHOOK_SECRET_KEY or altered value');
}
