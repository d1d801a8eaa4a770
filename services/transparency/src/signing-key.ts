import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface SigningKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
}

/** File under DATA_DIR holding the generated key of a single-process installation. */
export const KEY_FILE = 'transparency-signing-key.pem';

function fromPem(pem: string): SigningKey {
  // Environment variables often carry a PEM with its line breaks written as \n.
  const privateKey = createPrivateKey(pem.replaceAll('\\n', '\n'));
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error('AUDIT_SIGNING_KEY is not an Ed25519 key');
  return { privateKey, publicKey: createPublicKey(privateKey) };
}

/**
 * The platform's Ed25519 signing key: the configured PKCS#8 PEM, or else the key kept in DATA_DIR, generated on
 * first start (`generatedIn` names the file). Replicas that do not share DATA_DIR must share a configured key.
 */
export function loadSigningKey(config: {
  AUDIT_SIGNING_KEY?: string | undefined;
  DATA_DIR: string;
}): SigningKey & { generatedIn?: string } {
  if (config.AUDIT_SIGNING_KEY) return fromPem(config.AUDIT_SIGNING_KEY);
  const file = join(config.DATA_DIR, KEY_FILE);
  mkdirSync(config.DATA_DIR, { recursive: true });
  const { privateKey } = generateKeyPairSync('ed25519');
  const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  try {
    // 'wx' fails when the file exists: the key is generated once and then always read back.
    writeFileSync(file, pem, { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return { ...fromPem(readFileSync(file, 'utf8')), generatedIn: file };
}
