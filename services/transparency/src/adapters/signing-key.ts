import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { keyIdOf } from '../domain/tree-head.js';

export interface SigningKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** SHA-256 (hex) of the raw public key: the id on everything it signs. */
  keyId: string;
}

/** File under DATA_DIR holding the generated key of a single-process installation. */
export const KEY_FILE = 'transparency-signing-key.pem';

/** A signing key from its PKCS#8 PEM. */
export function signingKeyFromPem(pem: string): SigningKey {
  // Environment variables often carry a PEM with its line breaks written as \n.
  const privateKey = createPrivateKey(pem.replaceAll('\\n', '\n'));
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error('AUDIT_SIGNING_KEY is not an Ed25519 key');
  const publicKey = createPublicKey(privateKey);
  return { privateKey, publicKey, keyId: keyIdOf(publicKey) };
}

/**
 * The platform's Ed25519 signing key as configured: `AUDIT_SIGNING_KEY`, else the key kept in DATA_DIR (`from`
 * names the file); undefined when there is neither. Nothing is generated here (see `generateSigningKey`).
 */
export function configuredSigningKey(config: {
  AUDIT_SIGNING_KEY?: string | undefined;
  DATA_DIR: string;
}): (SigningKey & { from?: string }) | undefined {
  if (config.AUDIT_SIGNING_KEY) return signingKeyFromPem(config.AUDIT_SIGNING_KEY);
  const file = join(config.DATA_DIR, KEY_FILE);
  return existsSync(file) ? { ...signingKeyFromPem(readFileSync(file, 'utf8')), from: file } : undefined;
}

/**
 * Generates the key of a single-process installation into DATA_DIR and answers the key the file holds (another
 * process may have written it first: the file is created exclusively, then always read back).
 */
export function generateSigningKey(dataDir: string): SigningKey & { from: string } {
  const file = join(dataDir, KEY_FILE);
  mkdirSync(dataDir, { recursive: true });
  const { privateKey } = generateKeyPairSync('ed25519');
  const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  try {
    writeFileSync(file, pem, { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return { ...signingKeyFromPem(readFileSync(file, 'utf8')), from: file };
}
