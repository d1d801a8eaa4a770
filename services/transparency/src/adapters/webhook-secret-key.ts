import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '@rootline/host';
import { type SecretKeyring, secretKey } from '../domain/secret-box.js';

/** File under DATA_DIR holding the generated key of a single-process installation (base64, 32 bytes). */
export const WEBHOOK_KEY_FILE = 'transparency-webhook-secret.key';

export interface WebhookKeySettings {
  WEBHOOK_SECRET_KEY?: string | undefined;
  WEBHOOK_SECRET_KEYS_PREVIOUS?: string | undefined;
  DATA_DIR: string;
}

/** What the database holds sealed: how many secrets, and the key ids those in the v2 form name. */
export interface SealedSecrets {
  sealed: number;
  keyIds: readonly string[];
}

function fromBase64(text: string, where: string): Buffer {
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== 32) throw new ConfigError(`${where} must hold 32 bytes in base64 (it holds ${key.length})`);
  return key;
}

/**
 * The keys that seal webhook secrets at rest. The current key is the configured `WEBHOOK_SECRET_KEY` (32 bytes,
 * base64), else the key kept in DATA_DIR, generated on first start (`generatedIn` names the file). Earlier keys
 * (`WEBHOOK_SECRET_KEYS_PREVIOUS`, comma-separated) only open what they sealed, so it can be re-sealed.
 *
 * A key is generated only while nothing is sealed: with sealed secrets in the database and no key, a new key could
 * open none of them, so this refuses, naming the setting, instead of losing them.
 */
export function loadWebhookKeyring(
  config: WebhookKeySettings,
  existing: SealedSecrets,
): { ring: SecretKeyring; generatedIn?: string } {
  const previous = (config.WEBHOOK_SECRET_KEYS_PREVIOUS ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k !== '')
    .map((k, i) => secretKey(fromBase64(k, `WEBHOOK_SECRET_KEYS_PREVIOUS (key ${i + 1})`)));
  if (config.WEBHOOK_SECRET_KEY) {
    return { ring: { current: secretKey(fromBase64(config.WEBHOOK_SECRET_KEY, 'WEBHOOK_SECRET_KEY')), previous } };
  }
  const file = join(config.DATA_DIR, WEBHOOK_KEY_FILE);
  if (!existsSync(file) && existing.sealed > 0) {
    const ids = existing.keyIds.length > 0 ? ` (key id ${existing.keyIds.join(', ')})` : '';
    throw new ConfigError(
      `WEBHOOK_SECRET_KEY: ${existing.sealed} webhook secret(s) in the database are sealed under a key${ids} that ` +
        `is gone: it is not set and ${file} does not exist. Set WEBHOOK_SECRET_KEY to the key they were sealed ` +
        'with (or restore the file); a new key would make every secret unreadable, so none is generated',
    );
  }
  mkdirSync(config.DATA_DIR, { recursive: true });
  try {
    // 'wx' fails when the file exists: the key is generated once and then always read back.
    writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return { ring: { current: secretKey(fromBase64(readFileSync(file, 'utf8'), file)), previous }, generatedIn: file };
}
