import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Actor, plantRegistered } from '@rootline/contracts';
import {
  buildGateway,
  GatewayConfig,
  publishEvent,
  startTestPlatform,
  type TestPlatform,
} from '@rootline/gateway/testing';
import { createLogger, loadConfig } from '@rootline/host';
import { freePort, startTestSocks, TEST_JWT_SECRET, type TestSocks } from '@rootline/testing';
import { service as transparency } from '@rootline/transparency';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// A real SOCKS5 server (@pondwader/socks5-server, with username and password) started here records every CONNECT
// it is asked for (socks-server.ts); webhook deliveries of the transparency service go through it when SOCKS_PROXY_URL is set.
const ONION = 'rootlinetestabcdefghijklmnopqrstuvwxyz234567abcdefghijk.onion';
const owner: Actor = { id: 'usr_socksowner', role: 'USER' };

let p: TestPlatform;
let socks: TestSocks;
let socksPort: number;
let connects: string[];
let receiver: Server;
let receiverPort: number;
const received: { url: string; body: string }[] = [];
const extra: FastifyInstance[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      received.push({ url: req.url ?? '', body });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  receiverPort = (receiver.address() as AddressInfo).port;

  socks = await startTestSocks();
  socksPort = socks.port;
  connects = socks.connects;

  p = await startTestPlatform([transparency], {
    SOCKS_PROXY_URL: socks.url,
    SOCKS_CHECK_TARGET: `127.0.0.1:${receiverPort}`,
    HIDDEN_SERVICE_HOSTNAME: ONION,
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_POLL_MS: '50',
  });
});
afterAll(async () => {
  for (const g of extra) await g.close();
  await p?.stop();
  await socks?.stop();
  await new Promise<void>((r) => receiver?.close(() => r()));
});

/** Another gateway on the platform's bus and database, with its own privacy settings. */
async function gatewayWith(env: Record<string, string>): Promise<FastifyInstance> {
  const config = loadConfig(GatewayConfig, { JWT_SECRET: TEST_JWT_SECRET, LOG_LEVEL: 'silent', ...env });
  const g = await buildGateway({ bus: p.bus, log: createLogger('g', 'silent'), config, database: p.database });
  extra.push(g);
  await g.ready();
  return g;
}

describe('GET /api/privacy/status', () => {
  it('reports a reachable proxy that completes a SOCKS5 handshake, and the hidden service, without credentials', async () => {
    const before = connects.length;
    const res = await p.http('GET', '/api/privacy/status');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      socks: {
        configured: true,
        proxy: `127.0.0.1:${socksPort}`,
        reachable: true,
        handshake: true,
        checkTarget: `127.0.0.1:${receiverPort}`,
        error: null,
      },
      outgoingHttpProxied: true,
      hiddenService: { configured: true, hostname: ONION },
    });
    expect(res.body.data.socks.latencyMs).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(res.body)).not.toContain('s3cret-proxy');
    // The handshake really went through the proxy: it was asked to connect to the check target.
    expect(connects.slice(before)).toContain(`127.0.0.1:${receiverPort}`);
  });

  it('tells a proxy that is down from one that answers but is not SOCKS5, and from wrong credentials', async () => {
    const closed = await freePort();
    const down = await gatewayWith({ SOCKS_PROXY_URL: `socks5://127.0.0.1:${closed}` });
    const d = (await down.inject({ url: '/api/privacy/status' })).json().data;
    expect(d.socks).toMatchObject({ configured: true, reachable: false, handshake: false });
    expect(d.socks.error).toMatch(/ECONNREFUSED/);

    // The HTTP receiver accepts TCP but does not speak SOCKS5.
    const notSocks = await gatewayWith({
      SOCKS_PROXY_URL: `socks5://127.0.0.1:${receiverPort}`,
      PRIVACY_CHECK_TIMEOUT_MS: '1000',
    });
    const n = (await notSocks.inject({ url: '/api/privacy/status' })).json().data;
    expect(n.socks).toMatchObject({ reachable: true, handshake: false });
    expect(n.socks.error).toBeTruthy();

    const wrong = await gatewayWith({ SOCKS_PROXY_URL: `socks5://rootline:wrong@127.0.0.1:${socksPort}` });
    const w = (await wrong.inject({ url: '/api/privacy/status' })).json().data;
    expect(w.socks).toMatchObject({ reachable: true, handshake: false });
  });

  it('says so when no proxy and no hidden service are configured', async () => {
    const plain = await gatewayWith({});
    const res = await plain.inject({ url: '/api/privacy/status' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      socks: { configured: false, proxy: null, reachable: false, handshake: false },
      outgoingHttpProxied: false,
      hiddenService: { configured: false, hostname: null },
    });
  });
});

describe('outgoing HTTP through the SOCKS5 proxy', () => {
  it('delivers a webhook through the proxy', async () => {
    const token = await p.token('USER', owner.id);
    const created = await p.http('POST', '/api/webhooks', {
      token,
      body: {
        url: `http://127.0.0.1:${receiverPort}/hooks/socks`,
        events: ['plant.registered'],
        secret: 'socks-shared-secret-0123456789',
      },
    });
    expect(created.status).toBe(201);
    const before = connects.length;
    await publishEvent(p.bus, plantRegistered, { plantId: 'plt_socks000001', commonName: 'Sage', ownerId: owner.id });
    await expect.poll(() => received.filter((r) => r.url === '/hooks/socks').length, { timeout: 15_000 }).toBe(1);
    expect(JSON.parse(received.find((r) => r.url === '/hooks/socks')!.body)).toMatchObject({
      event: 'plant.registered',
      data: { plantId: 'plt_socks000001' },
    });
    // The connection to the receiver was made by the proxy, on the worker's request.
    expect(connects.slice(before)).toContain(`127.0.0.1:${receiverPort}`);
  });
});
