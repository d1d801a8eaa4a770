import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** File under DATA_DIR holding the generated key of a single-process installation (base64, 32 bytes). */
export const WEBHOOK_KEY_FILE = 'transparency-webhook-secret.key';

function fromBase64(text: string, where: string): Buffer {
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== 32) throw new Error(`${where} must hold 32 bytes in base64 (it holds ${key.length})`);
  return key;
}

/**
 * The AES-256 key that seals webhook secrets at rest: the configured `WEBHOOK_SECRET_KEY` (32 bytes, base64), or
 * else the key kept in DATA_DIR, generated on first start (`generatedIn` names the file). Replicas that do not
 * share DATA_DIR must share a configured key.
 */
export function loadWebhookSecretKey(config: { WEBHOOK_SECRET_KEY?: string | undefined; DATA_DIR: string }): {
  key: Buffer;
  generatedIn?: string;
} {
  if (config.WEBHOOK_SECRET_KEY) return { key: fromBase64(config.WEBHOOK_SECRET_KEY, 'WEBHOOK_SECRET_KEY') };
  const file = join(config.DATA_DIR, WEBHOOK_KEY_FILE);
  mkdirSync(config.DATA_DIR, { recursive: true });
  try {
    // 'wx' fails when the file exists: the key is generated once and then always read back.
    writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return { key: fromBase64(readFileSync(file, 'utf8'), file), generatedIn: file };
}
