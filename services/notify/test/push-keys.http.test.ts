import { createECDH } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNatsBus } from '@rootline/bus';
import { demandMatched, type EventDef, newId, type PayloadOf } from '@rootline/contracts';
import { publishEvent, startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import { createLogger, startService } from '@rootline/host';
import { service as notify } from '@rootline/notify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPushService, type TestPushService, testBrowser, verifyVapid } from './push-endpoint.js';

const quiet = { info: () => {}, warn: () => {}, error: () => {} };

/** A VAPID pair as web-push makes one: P-256, the public key uncompressed, both base64url. */
function vapidPair() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const privateKey = Buffer.alloc(32);
  ecdh.getPrivateKey().copy(privateKey, 32 - ecdh.getPrivateKey().length);
  return { publicKey: ecdh.getPublicKey().toString('base64url'), privateKey: privateKey.toString('base64url') };
}

/**
 * Keys that survive a redeploy: notify re-created with a fresh DATA_DIR (a new container) keeps pushing to the
 * browsers that subscribed when its VAPID pair is configured, and refuses to start when the pair is gone or is
 * another one, instead of generating a pair no push service would accept for those subscriptions.
 */
describe('VAPID keys across restarts', () => {
  let p: TestPlatform;
  let push: TestPushService;
  const dirs: string[] = [];
  const freshDataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'rootline-notify-data-'));
    dirs.push(dir);
    return dir;
  };
  const pair = vapidPair();
  const keys = { VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: pair.privateKey };
  let base: Record<string, string>;

  const publish = <E extends EventDef>(def: E, payload: PayloadOf<E>) => publishEvent(p.bus, def, payload);

  /** Replaces the running notify with a new instance on these settings (a re-created container). */
  const restart = async (env: Record<string, string>) => {
    await p.services.get('notify')?.stop();
    p.services.delete('notify');
    const bus = await createNatsBus({ url: p.infra.nats.url, name: 'notify', log: quiet });
    try {
      const running = await startService(notify, {
        bus,
        database: p.database,
        log: createLogger('test', 'silent'),
        env: { ...base, ...env },
      });
      const stop = running.stop.bind(running);
      const stopAndClose = async () => {
        await stop();
        await bus.close();
      };
      p.services.set('notify', { ...running, stop: stopAndClose });
    } catch (err) {
      await bus.close();
      throw err;
    }
  };

  /** Sends a demand match to the grower and answers the push the browser decrypted, with its VAPID public key. */
  const pushed = async () => {
    const before = push.received.length;
    await publish(demandMatched, {
      matchId: newId('mtc', Date.now()),
      supplyId: 'sup_keys',
      growerId: 'usr_keys_grower',
      consumerId: 'usr_keys_household',
      crop: 'lettuce',
      quantityKg: 3,
      distanceKm: 4,
    });
    await expect.poll(() => push.received.length, { timeout: 10_000 }).toBe(before + 1);
    const got = push.received[before];
    const vapid = verifyVapid(got?.headers.authorization, push.origin, Math.floor(Date.now() / 1000));
    return { payload: got?.payload, publicKey: vapid.publicKey };
  };

  beforeAll(async () => {
    push = await startTestPushService();
    base = {
      PUSH_CA_FILE: push.caFile,
      PUBLIC_URL: 'https://rootline.test',
      NOTIFY_POLL_MS: '50',
      NOTIFY_RETRY_BASE_MS: '50',
      LOG_LEVEL: 'silent',
    };
    p = await startTestPlatform([notify], { ...base, ...keys, DATA_DIR: freshDataDir() });
    const browser = testBrowser();
    push.browsers.set('/sub/keys', browser);
    const added = await p.http('POST', '/api/notifications/push/subscriptions', {
      role: 'GROWER',
      sub: 'usr_keys_grower',
      body: browser.subscription(`${push.origin}/sub/keys`),
    });
    expect(added.status).toBe(201);
  });
  afterAll(async () => {
    await p?.stop();
    await push?.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('pushes with the configured pair', async () => {
    const got = await pushed();
    expect(got.publicKey).toBe(pair.publicKey);
    expect(got.payload).toMatchObject({ type: 'demand-match' });
  });

  it('still pushes to the same subscription after a restart with a fresh DATA_DIR and the same pair', async () => {
    const dir = freshDataDir();
    await restart({ ...keys, DATA_DIR: dir });
    const got = await pushed();
    expect(got.publicKey).toBe(pair.publicKey);
    expect(readdirSync(dir)).not.toContain('vapid.json');
  });

  it('refuses to start with a fresh DATA_DIR and no pair, naming the settings, and generates none', async () => {
    const dir = freshDataDir();
    await expect(restart({ DATA_DIR: dir })).rejects.toThrow(
      new RegExp(
        `^VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY: 1 push subscription\\(s\\) were made with a VAPID key \\(public key ${pair.publicKey}\\) that is gone`,
      ),
    );
    expect(readdirSync(dir)).not.toContain('vapid.json');
  });

  it('refuses to start with another pair than the subscriptions were made with', async () => {
    const other = vapidPair();
    await expect(
      restart({ VAPID_PUBLIC_KEY: other.publicKey, VAPID_PRIVATE_KEY: other.privateKey, DATA_DIR: freshDataDir() }),
    ).rejects.toThrow(/^VAPID_PUBLIC_KEY: push subscriptions were made with public key/);
  });

  it('refuses a pair whose halves do not belong together, or half a pair', async () => {
    const other = vapidPair();
    await expect(
      restart({ VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: other.privateKey, DATA_DIR: freshDataDir() }),
    ).rejects.toThrow(/^VAPID_PUBLIC_KEY: not the public key of VAPID_PRIVATE_KEY/);
    await expect(restart({ VAPID_PUBLIC_KEY: pair.publicKey, DATA_DIR: freshDataDir() })).rejects.toThrow(
      /^VAPID_PRIVATE_KEY: set both VAPID keys or neither/,
    );
  });

  it('starts again with the pair, and pushes', async () => {
    await restart({ ...keys, DATA_DIR: freshDataDir() });
    expect((await pushed()).publicKey).toBe(pair.publicKey);
  });
});
