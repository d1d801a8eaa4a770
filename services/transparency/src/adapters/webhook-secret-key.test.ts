import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { secretKeyId } from '../domain/secret-box.js';
import { loadWebhookKeyring, WEBHOOK_KEY_FILE } from './webhook-secret-key.js';

const nothingSealed = { sealed: 0, keyIds: [] };

describe('webhook secret keys', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rootline-whkey-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('takes the configured key, and earlier keys to open what they sealed', () => {
    const key = randomBytes(32);
    const old = [randomBytes(32), randomBytes(32)];
    const loaded = loadWebhookKeyring(
      {
        WEBHOOK_SECRET_KEY: key.toString('base64'),
        WEBHOOK_SECRET_KEYS_PREVIOUS: old.map((k) => k.toString('base64')).join(', '),
        DATA_DIR: dir,
      },
      nothingSealed,
    );
    expect(loaded.ring.current.key.equals(key)).toBe(true);
    expect(loaded.ring.current.id).toBe(secretKeyId(key));
    expect(loaded.ring.previous.map((k) => k.id)).toEqual(old.map(secretKeyId));
    expect(loaded.generatedIn).toBeUndefined();
  });

  it('refuses a configured key that is not 32 bytes, naming the setting', () => {
    const short = randomBytes(16).toString('base64');
    expect(() => loadWebhookKeyring({ WEBHOOK_SECRET_KEY: short, DATA_DIR: dir }, nothingSealed)).toThrow(
      /WEBHOOK_SECRET_KEY must hold 32 bytes/,
    );
    expect(() =>
      loadWebhookKeyring(
        { WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'), WEBHOOK_SECRET_KEYS_PREVIOUS: short, DATA_DIR: dir },
        nothingSealed,
      ),
    ).toThrow(/WEBHOOK_SECRET_KEYS_PREVIOUS \(key 1\) must hold 32 bytes/);
  });

  it('generates a key once under DATA_DIR (mode 600) and reads it back', () => {
    const first = loadWebhookKeyring({ DATA_DIR: dir }, nothingSealed);
    // Once the file exists it is read back, whatever the database holds.
    const second = loadWebhookKeyring({ DATA_DIR: dir }, { sealed: 3, keyIds: [first.ring.current.id] });
    expect(first.generatedIn).toBe(join(dir, WEBHOOK_KEY_FILE));
    expect(first.ring.current.key).toHaveLength(32);
    expect(second.ring.current.key.equals(first.ring.current.key)).toBe(true);
    expect(readFileSync(join(dir, WEBHOOK_KEY_FILE), 'utf8').trim()).toBe(first.ring.current.key.toString('base64'));
    expect(statSync(join(dir, WEBHOOK_KEY_FILE)).mode & 0o777).toBe(0o600);
  });

  it('refuses to generate a key while sealed secrets exist, naming the setting and the key id', () => {
    const empty = mkdtempSync(join(tmpdir(), 'rootline-whkey-gone-'));
    try {
      expect(() => loadWebhookKeyring({ DATA_DIR: empty }, { sealed: 2, keyIds: ['abcdefghijk'] })).toThrow(
        /^WEBHOOK_SECRET_KEY: 2 webhook secret\(s\) .* key \(key id abcdefghijk\) that is gone/,
      );
      expect(existsSync(join(empty, WEBHOOK_KEY_FILE))).toBe(false);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
