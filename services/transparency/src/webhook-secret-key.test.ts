import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadWebhookSecretKey, WEBHOOK_KEY_FILE } from './webhook-secret-key.js';

describe('webhook secret key', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rootline-whkey-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('takes the configured key', () => {
    const key = randomBytes(32);
    const loaded = loadWebhookSecretKey({ WEBHOOK_SECRET_KEY: key.toString('base64'), DATA_DIR: dir });
    expect(loaded.key.equals(key)).toBe(true);
    expect(loaded.generatedIn).toBeUndefined();
  });

  it('refuses a configured key that is not 32 bytes', () => {
    const short = randomBytes(16).toString('base64');
    expect(() => loadWebhookSecretKey({ WEBHOOK_SECRET_KEY: short, DATA_DIR: dir })).toThrow(/32 bytes/);
  });

  it('generates a key once under DATA_DIR (mode 600) and reads it back', () => {
    const first = loadWebhookSecretKey({ DATA_DIR: dir });
    const second = loadWebhookSecretKey({ DATA_DIR: dir });
    expect(first.generatedIn).toBe(join(dir, WEBHOOK_KEY_FILE));
    expect(first.key).toHaveLength(32);
    expect(second.key.equals(first.key)).toBe(true);
    expect(readFileSync(join(dir, WEBHOOK_KEY_FILE), 'utf8').trim()).toBe(first.key.toString('base64'));
    expect(statSync(join(dir, WEBHOOK_KEY_FILE)).mode & 0o777).toBe(0o600);
  });
});
