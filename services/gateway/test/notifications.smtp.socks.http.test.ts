import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newId, userRegistered } from '@rootline/contracts';
import { service as notify } from '@rootline/notify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishEvent } from './notify-support.js';
import { startTestPlatform, type TestPlatform } from './platform.js';
import { startTestSmtp, type TestSmtp } from './smtp.js';
import { startTestSocks, type TestSocks } from './socks-server.js';

// Email from notify through a local SOCKS5 server (SOCKS_PROXY_URL, with username and password) to a real SMTP
// server: the proxy makes the connection to the mail server.
let p: TestPlatform;
let smtp: TestSmtp;
let socks: TestSocks;
let dataDir: string;

beforeAll(async () => {
  smtp = await startTestSmtp();
  socks = await startTestSocks();
  dataDir = await mkdtemp(join(tmpdir(), 'notify-smtp-socks-'));
  p = await startTestPlatform([notify], {
    DATA_DIR: dataDir,
    SMTP_URL: smtp.url,
    SOCKS_PROXY_URL: socks.url,
    NOTIFY_POLL_MS: '50',
    NOTIFY_RETRY_BASE_MS: '50',
  });
});
afterAll(async () => {
  await p?.stop();
  await socks?.stop();
  await smtp?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
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
      newId('evt'),
    );
    await expect
      .poll(() => smtp.received.filter((m) => m.to && JSON.stringify(m.to).includes('proxied@example.org')).length, {
        timeout: 15_000,
      })
      .toBeGreaterThan(0);
    expect(socks.connects).toContain(new URL(smtp.url).host);
  });
});
