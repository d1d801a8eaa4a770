import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { demandMatched, newId, userRegistered } from '@rootline/contracts';
import { publishEvent, startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import { service as notify } from '@rootline/notify';
import { startTestSmtp, startTestSocks, type TestSmtp, type TestSocks } from '@rootline/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPushService, type TestPushService, testBrowser } from './push-endpoint.js';

// Web Push and email from notify through a local SOCKS5 server (SOCKS_PROXY_URL, with username and password): to
// a local HTTPS push service whose self-signed certificate is trusted by PUSH_CA_FILE (TLS runs end to end inside
// the tunnel), and to a real SMTP server.
let p: TestPlatform;
let push: TestPushService;
let smtp: TestSmtp;
let socks: TestSocks;
let dataDir: string;

beforeAll(async () => {
  push = await startTestPushService();
  smtp = await startTestSmtp();
  socks = await startTestSocks();
  dataDir = await mkdtemp(join(tmpdir(), 'notify-push-socks-'));
  p = await startTestPlatform([notify], {
    DATA_DIR: dataDir,
    PUSH_CA_FILE: push.caFile,
    SOCKS_PROXY_URL: socks.url,
    SMTP_URL: smtp.url,
    NOTIFY_POLL_MS: '50',
    NOTIFY_RETRY_BASE_MS: '50',
  });
});
afterAll(async () => {
  await p?.stop();
  await socks?.stop();
  await push?.stop();
  await smtp?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('Web Push through the SOCKS5 proxy', () => {
  it('delivers a push the browser decrypts, the connection made by the proxy', async () => {
    const browser = testBrowser();
    push.browsers.set('/sub/socks', browser);
    const added = await p.http('POST', '/api/notifications/push/subscriptions', {
      role: 'GROWER',
      sub: 'usr_socks_grower',
      body: browser.subscription(`${push.origin}/sub/socks`),
    });
    expect(added.status).toBe(201);
    await publishEvent(p.bus, demandMatched, {
      matchId: newId('mtc', Date.now()),
      supplyId: 'sup_1',
      growerId: 'usr_socks_grower',
      consumerId: 'usr_socks_household',
      crop: 'lettuce',
      quantityKg: 2,
      distanceKm: 12,
    });
    await expect.poll(() => push.received.length, { timeout: 10_000 }).toBe(1);
    expect(push.received[0]?.payload).toMatchObject({ type: 'demand-match' });
    expect(socks.connects).toContain(new URL(push.origin).host);
  });
});

describe('email through the SOCKS5 proxy', () => {
  it('delivers the welcome email, the connection to the mail server made by the proxy', async () => {
    await publishEvent(
      p.bus,
      userRegistered,
      {
        userId: 'usr_smtpsocks01',
        email: 'proxied@example.org',
        name: 'Proxied Grower',
        method: 'password',
        registeredAt: new Date().toISOString(),
      },
      newId('evt', Date.now()),
    );
    const toProxied = () => smtp.received.filter((m) => JSON.stringify(m.to ?? '').includes('proxied@example.org'));
    await expect.poll(() => toProxied().length, { timeout: 15_000 }).toBeGreaterThan(0);
    expect(socks.connects).toContain(new URL(smtp.url).host);
  });
});
