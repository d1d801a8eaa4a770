import { generateKeyPairSync } from 'node:crypto';
import { startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { service as transparency } from '../src/service.js';

// A public address by literal (no DNS needed); nothing is ever sent to it in this file.
const PUBLIC_URL = 'http://93.184.216.34/rootline-hook';

describe('webhook address rules on a change of address', () => {
  let p: TestPlatform;
  const owner = { role: 'USER' as const, sub: 'usr_ssrfowner1' };

  beforeAll(async () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    // The production rule: private, loopback and link-local addresses are refused.
    p = await startTestPlatform([transparency], {
      AUDIT_SIGNING_KEY: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    });
  });
  afterAll(async () => {
    await p?.stop();
  });

  it('checks a new url as strictly as a new webhook, and keeps the old one when it is refused', async () => {
    const made = await p.http('POST', '/api/webhooks', {
      ...owner,
      body: { url: PUBLIC_URL, events: ['plant.registered'], secret: 'ssrf-shared-secret-0123456789' },
    });
    expect(made.status).toBe(201);
    const id = made.body.data.id as string;
    for (const url of [
      'http://169.254.169.254/latest/meta-data',
      'http://10.0.0.7/hook',
      'http://127.0.0.1:8080/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://[fd00::1]/hook',
    ]) {
      const refused = await p.http('PATCH', `/api/transparency/webhooks/${id}`, { ...owner, body: { url } });
      expect(refused.status, url).toBe(400);
      expect(refused.body.error.code, url).toBe('VALIDATION_ERROR');
      expect(refused.body.error.message, url).toMatch(/^url: /);
    }
    const read = await p.http('GET', `/api/transparency/webhooks/${id}`, owner);
    expect(read.body.data.url).toBe(PUBLIC_URL);
  });
});
