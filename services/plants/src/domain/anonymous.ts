import {
  createCipheriv,
  createPublicKey,
  diffieHellman,
  generateKeyPairSync,
  hash,
  hkdfSync,
  randomBytes,
} from 'node:crypto';
import { type EncryptedContact, PRIVATE_KEY_SEAL_INFO, type SealedPrivateKey } from '@rootline/contracts/plants';

/** HKDF `info` of the anonymous contact's encryption key. */
export const CONTACT_KEY_INFO = 'rootline anonymous contact';

/** `rlw_` + the first 40 hex digits of SHA-256 over the raw 32-byte Ed25519 public key. */
export function walletAddress(publicKeyRaw: Buffer): string {
  return `rlw_${hash('sha256', publicKeyRaw, 'hex').slice(0, 40)}`;
}

/** A fresh Ed25519 key pair as raw 32-byte keys in base64url (public key, private seed). */
export function generateWalletKeys(): { publicKey: string; privateKey: string } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const jwk = privateKey.export({ format: 'jwk' });
  const pub = publicKey.export({ format: 'jwk' });
  if (!jwk.d || !pub.x) throw new Error('Ed25519 key export lacks its raw key');
  return { publicKey: pub.x, privateKey: jwk.d };
}

function seal(key: Buffer, plaintext: string): { iv: string; ciphertext: string; tag: string } {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return {
    iv: iv.toString('base64url'),
    ciphertext: ciphertext.toString('base64url'),
    tag: cipher.getAuthTag().toString('base64url'),
  };
}

function contactKey(secret: Buffer, salt: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, salt, CONTACT_KEY_INFO, 32));
}

/** Thrown when an encryption public key is not a usable X25519 key. */
export class UnusableKeyError extends Error {}

/**
 * Encrypts a contact handle for its owner. With an X25519 `encryptionPublicKey` (base64url): ECDH with a fresh
 * ephemeral key, HKDF-SHA256 (salt = the ephemeral public key) and AES-256-GCM. Without: the AES key comes from the
 * wallet's private seed by HKDF-SHA256 (empty salt), so only the holder of the private key can read it.
 */
export function encryptContact(
  handle: string,
  keys: { encryptionPublicKey?: string | undefined; walletPrivateKey: string },
): EncryptedContact {
  if (keys.encryptionPublicKey) {
    const { shared, ephemeralPublicKey: ephemeralPublic } = agree(keys.encryptionPublicKey);
    const key = contactKey(shared, Buffer.from(ephemeralPublic, 'base64url'));
    return { algorithm: 'x25519-hkdf-sha256-aes-256-gcm', ephemeralPublicKey: ephemeralPublic, ...seal(key, handle) };
  }
  const key = contactKey(Buffer.from(keys.walletPrivateKey, 'base64url'), Buffer.alloc(0));
  return { algorithm: 'ed25519-seed-hkdf-sha256-aes-256-gcm', ephemeralPublicKey: null, ...seal(key, handle) };
}

/** ECDH of a fresh ephemeral X25519 key with the recipient's public key (base64url); throws UnusableKeyError. */
function agree(recipientPublicKey: string): { shared: Buffer; ephemeralPublicKey: string } {
  const ephemeral = generateKeyPairSync('x25519');
  const ephemeralPublicKey = ephemeral.publicKey.export({ format: 'jwk' }).x!;
  try {
    const recipient = createPublicKey({ key: { kty: 'OKP', crv: 'X25519', x: recipientPublicKey }, format: 'jwk' });
    return { shared: diffieHellman({ privateKey: ephemeral.privateKey, publicKey: recipient }), ephemeralPublicKey };
  } catch (err) {
    throw new UnusableKeyError('not a usable X25519 public key', { cause: err });
  }
}

/**
 * Seals a wallet's private seed to the client's X25519 `keyEncryptionPublicKey`: ECDH with a fresh ephemeral key,
 * HKDF-SHA256 (salt = the ephemeral public key, info PRIVATE_KEY_SEAL_INFO) and AES-256-GCM over the 32 raw bytes.
 * WebCrypto opens it with ECDH (X25519), HKDF and AES-GCM; only the holder of the X25519 private key can.
 */
export function sealPrivateKey(privateKey: string, keyEncryptionPublicKey: string): SealedPrivateKey {
  const { shared, ephemeralPublicKey } = agree(keyEncryptionPublicKey);
  const key = Buffer.from(
    hkdfSync('sha256', shared, Buffer.from(ephemeralPublicKey, 'base64url'), PRIVATE_KEY_SEAL_INFO, 32),
  );
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(Buffer.from(privateKey, 'base64url')), cipher.final()]);
  return {
    algorithm: 'x25519-hkdf-sha256-aes-256-gcm',
    ephemeralPublicKey,
    iv: iv.toString('base64url'),
    ciphertext: ciphertext.toString('base64url'),
    tag: cipher.getAuthTag().toString('base64url'),
  };
}

const P = 2n ** 255n - 19n;

function modPow(base: bigint, exp: bigint, mod: bigint): bigint {
  let result = 1n;
  let b = base % mod;
  let e = exp;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % mod;
    b = (b * b) % mod;
    e >>= 1n;
  }
  return result;
}

/**
 * The X25519 public key of an Ed25519 public key (RFC 7748's birational map u = (1 + y) / (1 − y) mod p, as
 * libsodium's crypto_sign_ed25519_pk_to_curve25519), both raw 32-byte little-endian. The holder of the Ed25519
 * seed has the matching X25519 private key: the first 32 bytes of SHA-512(seed).
 */
export function ed25519ToX25519PublicKey(publicKeyRaw: Buffer): Buffer {
  let y = 0n;
  for (let i = 31; i >= 0; i--) y = (y << 8n) | BigInt(publicKeyRaw[i]!);
  y &= (1n << 255n) - 1n; // The top bit is the sign of x, not part of y.
  const u = ((1n + y) * modPow((1n - y + P) % P, P - 2n, P)) % P;
  const out = Buffer.alloc(32);
  let v = u;
  for (let i = 0; i < 32; i++) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

/** Whether a base64url string is a usable Ed25519 public key (a point on the curve). */
export function isEd25519PublicKey(publicKey: string): boolean {
  try {
    createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: publicKey }, format: 'jwk' });
    return Buffer.from(publicKey, 'base64url').length === 32;
  } catch {
    return false;
  }
}

/**
 * A fresh anonymous identity: wallet keys and address, and an encrypted random contact handle. With
 * `walletPublicKey` (the client made its own key pair) no private key exists here (`privateKey` is null), and the
 * contact is encrypted to `encryptionPublicKey` when given, else to the X25519 form of the wallet key. With
 * `keyEncryptionPublicKey` the new private key is only given sealed to it (`sealedPrivateKey`, `privateKey` null).
 */
export function createAnonymousIdentity(opts: {
  encryptionPublicKey?: string | undefined;
  walletPublicKey?: string | undefined;
  keyEncryptionPublicKey?: string | undefined;
}): {
  publicKey: string;
  privateKey: string | null;
  sealedPrivateKey: SealedPrivateKey | null;
  walletAddress: string;
  contact: { handle: string; encrypted: EncryptedContact };
} {
  const handle = `anon-${randomBytes(16).toString('base64url')}`;
  if (opts.walletPublicKey) {
    const raw = Buffer.from(opts.walletPublicKey, 'base64url');
    const encryptionPublicKey = opts.encryptionPublicKey ?? ed25519ToX25519PublicKey(raw).toString('base64url');
    return {
      publicKey: opts.walletPublicKey,
      privateKey: null,
      sealedPrivateKey: null,
      walletAddress: walletAddress(raw),
      contact: { handle, encrypted: encryptContact(handle, { encryptionPublicKey, walletPrivateKey: '' }) },
    };
  }
  const keys = generateWalletKeys();
  const sealedPrivateKey = opts.keyEncryptionPublicKey
    ? sealPrivateKey(keys.privateKey, opts.keyEncryptionPublicKey)
    : null;
  return {
    publicKey: keys.publicKey,
    // Sealed, it is not given in clear: the sealed form is what a retry can be answered with again.
    privateKey: sealedPrivateKey ? null : keys.privateKey,
    sealedPrivateKey,
    walletAddress: walletAddress(Buffer.from(keys.publicKey, 'base64url')),
    contact: {
      handle,
      encrypted: encryptContact(handle, {
        encryptionPublicKey: opts.encryptionPublicKey,
        walletPrivateKey: keys.privateKey,
      }),
    },
  };
}
