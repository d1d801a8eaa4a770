import { type AddressInfo, createServer, type Socket } from 'node:net';
import { outgoingAgent } from '@rootline/host';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RefusedAddress, sendWebhook } from '../src/adapters/webhook-sender.js';
import { webhookMessage } from '../src/domain/webhook-message.js';

// The SSRF check through a socks5:// proxy: the agent resolves the name with the sender's guarded lookup, so a
// name that resolves to a refused address is refused before the proxy is even contacted.
describe('webhook sender through a SOCKS5 proxy', () => {
  const accepted: Socket[] = [];
  const proxy = createServer((s) => {
    accepted.push(s);
    s.destroy();
  });
  let port = 0;
  beforeAll(async () => {
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
    port = (proxy.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((r) => proxy.close(() => r()));
  });

  it('refuses a name that resolves to loopback without connecting to the proxy (socks5://)', async () => {
    const message = webhookMessage('secret-secret-secret', 'whd_proxy', 1_800_000_000, {
      event: 'plant.registered',
      timestamp: '2026-11-23T05:00:00.000Z',
      data: {},
    });
    const agent = outgoingAgent(`socks5://127.0.0.1:${port}`);
    await expect(
      sendWebhook('http://localhost:9/hook', message, {
        allowPrivate: false,
        timeoutMs: 2000,
        ...(agent ? { agent } : {}),
      }),
    ).rejects.toBeInstanceOf(RefusedAddress);
    expect(accepted).toHaveLength(0);
  });
});
