import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkWebhookUrl, RefusedAddress, sendWebhook } from '../src/adapters/webhook-sender.js';
import { webhookMessage } from '../src/domain/webhook-message.js';

describe('webhook sender against a real local receiver', () => {
  let hits = 0;
  let port = 0;
  const server = createServer((_req, res) => {
    hits++;
    res.writeHead(204).end();
  });
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()));
  });

  const message = webhookMessage('secret-secret-secret', 'whd_test', 1_800_000_000, {
    event: 'plant.registered',
    timestamp: '2026-11-23T05:00:00.000Z',
    data: {},
  });

  it('refuses loopback, private and link-local receivers at registration, by literal and after DNS', async () => {
    for (const url of [
      'http://127.0.0.1/x',
      'http://[::1]/x',
      'http://169.254.169.254/latest',
      'http://10.0.0.8/',
      'http://localhost/x',
    ]) {
      await expect(checkWebhookUrl(url, false), url).rejects.toThrow();
    }
    await expect(checkWebhookUrl('http://127.0.0.1/x', true)).resolves.toBeUndefined();
  });

  it('does not connect to a refused address, by literal or by name, unless allowed', async () => {
    await expect(
      sendWebhook(`http://127.0.0.1:${port}/`, message, { allowPrivate: false, timeoutMs: 2000 }),
    ).rejects.toBeInstanceOf(RefusedAddress);
    await expect(
      sendWebhook(`http://localhost:${port}/`, message, { allowPrivate: false, timeoutMs: 2000 }),
    ).rejects.toThrow(/refused address/);
    expect(hits).toBe(0);
    await expect(
      sendWebhook(`http://127.0.0.1:${port}/`, message, { allowPrivate: true, timeoutMs: 2000 }),
    ).resolves.toBe(204);
    expect(hits).toBe(1);
  });
});
