import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { VAPID_FILE, vapidKeys } from './vapid.js';

const none = { subscriptions: 0, publicKeys: [] };

describe('VAPID keys', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rootline-vapid-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('generates a pair once under DATA_DIR (mode 600) and reads it back, subscriptions or not', async () => {
    const first = await vapidKeys({ DATA_DIR: dir }, none);
    const again = await vapidKeys({ DATA_DIR: dir }, { subscriptions: 2, publicKeys: [first.publicKey] });
    expect(first.source).toBe(join(dir, VAPID_FILE));
    expect(again).toEqual(first);
    expect(JSON.parse(readFileSync(join(dir, VAPID_FILE), 'utf8')).publicKey).toBe(first.publicKey);
    expect(statSync(join(dir, VAPID_FILE)).mode & 0o777).toBe(0o600);
  });

  it('takes the configured pair over the file', async () => {
    const other = mkdtempSync(join(tmpdir(), 'rootline-vapid-other-'));
    try {
      const made = await vapidKeys({ DATA_DIR: other }, none);
      const got = await vapidKeys(
        { VAPID_PUBLIC_KEY: made.publicKey, VAPID_PRIVATE_KEY: made.privateKey, DATA_DIR: dir },
        none,
      );
      expect(got).toEqual({ publicKey: made.publicKey, privateKey: made.privateKey, source: 'settings' });
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('refuses to make a pair while subscriptions exist (even ones made before keys were recorded)', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'rootline-vapid-gone-'));
    try {
      await expect(vapidKeys({ DATA_DIR: empty }, { subscriptions: 4, publicKeys: [] })).rejects.toThrow(
        /^VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY: 4 push subscription\(s\) were made with a VAPID key that is gone/,
      );
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
