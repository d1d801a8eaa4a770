import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { demandMatched, type EventDef, newId, type PayloadOf } from '@rootline/contracts';
import { publishEvent, startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import { service as notify } from '@rootline/notify';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPushService, type TestPushService, testBrowser, verifyVapid } from './push-endpoint.js';

let p: TestPlatform;
let push: TestPushService;
let dataDir: string;

beforeAll(async () => {
  push = await startTestPushService();
  dataDir = await mkdtemp(join(tmpdir(), 'notify-push-'));
  p = await startTestPlatform([notify], {
    DATA_DIR: dataDir,
    PUSH_CA_FILE: push.caFile,
    PUBLIC_URL: 'https://rootline.test',
    NOTIFY_POLL_MS: '50',
    NOTIFY_RETRY_BASE_MS: '50',
    VAPID_SUBJECT: 'mailto:ops@rootline.test',
    LOG_LEVEL: process.env.TEST_LOG ?? 'silent',
  });
});
afterAll(async () => {
  await p?.stop();
  await push?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const publish = <E extends EventDef>(def: E, payload: PayloadOf<E>) => publishEvent(p.bus, def, payload);

const match = (growerId: string, consumerId: string) => ({
  matchId: newId('mtc', Date.now()),
  supplyId: 'sup_1',
  growerId,
  consumerId,
  crop: 'lettuce' as const,
  quantityKg: 2,
  distanceKm: 12,
});

async function subscriptionsOf(userId: string) {
  return (await p.database.db.execute(
    sql`select id, endpoint from notify.push_subscriptions where user_id = ${userId}`,
  )) as unknown as { id: string; endpoint: string }[];
}

describe('Web Push', () => {
  it('hands out the VAPID public key browsers subscribe with', async () => {
    const res = await p.http('GET', '/api/notifications/push/public-key', { role: 'USER', sub: 'usr_any' });
    expect(res.status).toBe(200);
    expect(Buffer.from(res.body.data.publicKey, 'base64url')).toHaveLength(65);
  });

  it('pushes a notification that the subscribed browser decrypts, signed with the VAPID key', async () => {
    const browser = testBrowser();
    push.browsers.set('/sub/grower', browser);
    const added = await p.http('POST', '/api/notifications/push/subscriptions', {
      role: 'GROWER',
      sub: 'usr_push_grower',
      body: browser.subscription(`${push.origin}/sub/grower`),
    });
    expect(added.status).toBe(201);
    expect(added.body.data).toMatchObject({
      id: expect.stringMatching(/^psh_/),
      endpoint: `${push.origin}/sub/grower`,
    });

    await publish(demandMatched, match('usr_push_grower', 'usr_push_household'));
    await expect.poll(() => push.received.length, { timeout: 10_000 }).toBe(1);
    const [got] = push.received;
    expect(got?.payload).toMatchObject({
      type: 'demand-match',
      title: 'A household near you wants lettuce',
      body: 'Your supply matches 2 kg of lettuce, within 15 km.',
      url: 'https://rootline.test/demand',
    });
    expect(got?.headers['content-encoding']).toBe('aes128gcm');
    expect(got?.headers.ttl).toBe('86400');
    const key = (await p.http('GET', '/api/notifications/push/public-key', { role: 'USER', sub: 'usr_any' })).body.data
      .publicKey;
    const vapid = verifyVapid(got?.headers.authorization, push.origin, Math.floor(Date.now() / 1000));
    expect(vapid.publicKey).toBe(key);
    expect(vapid.claims.sub).toBe('mailto:ops@rootline.test');
  });

  it('removes a subscription its push service reports gone', async () => {
    const browser = testBrowser();
    await p.http('POST', '/api/notifications/push/subscriptions', {
      role: 'USER',
      sub: 'usr_push_gone',
      body: browser.subscription(`${push.origin}/gone/1`),
    });
    expect(await subscriptionsOf('usr_push_gone')).toHaveLength(1);
    await publish(demandMatched, match('usr_push_other', 'usr_push_gone'));
    await expect.poll(async () => (await subscriptionsOf('usr_push_gone')).length, { timeout: 10_000 }).toBe(0);
    const rows = async () =>
      (await p.database.db.execute(
        sql`select status from notify.deliveries where user_id = 'usr_push_gone' and channel = 'push'`,
      )) as unknown as { status: string }[];
    await expect.poll(rows).toEqual([{ status: 'sent' }]);
  });

  it('lets a user remove their own subscription only', async () => {
    const browser = testBrowser();
    const added = await p.http('POST', '/api/notifications/push/subscriptions', {
      role: 'USER',
      sub: 'usr_push_owner',
      body: browser.subscription(`${push.origin}/sub/owner`),
    });
    const id = added.body.data.id as string;
    const other = await p.http('DELETE', `/api/notifications/push/subscriptions/${id}`, {
      role: 'USER',
      sub: 'usr_push_stranger',
    });
    expect(other.status).toBe(404);
    const own = await p.http('DELETE', `/api/notifications/push/subscriptions/${id}`, {
      role: 'USER',
      sub: 'usr_push_owner',
    });
    expect(own.body.data).toEqual({ id, removed: true });
    expect(await subscriptionsOf('usr_push_owner')).toEqual([]);
  });

  it.each([
    [{ endpoint: 'http://push.example/x', keys: { p256dh: 'B'.repeat(87), auth: 'a'.repeat(22) } }, 'endpoint'],
    [{ endpoint: 'https://push.example/x', keys: { p256dh: 'short', auth: 'a'.repeat(22) } }, 'p256dh'],
    [{ endpoint: 'https://push.example/x' }, 'keys'],
  ])('refuses an invalid subscription with 400 (%#)', async (body, field) => {
    const res = await p.http('POST', '/api/notifications/push/subscriptions', { role: 'USER', sub: 'usr_bad', body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(res.body.error.details)).toContain(field);
  });
});
