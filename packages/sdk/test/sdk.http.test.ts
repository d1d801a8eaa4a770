import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICES } from '../../../scripts/src/services.js';
import {
  createRootline,
  paginate,
  type RootlineClient,
  verifyCertificate,
  verifyInclusion,
  verifyWebhook,
} from '../src/index.js';

// The SDK against the real platform (every service, NATS, PostgreSQL), over HTTP on a local port.

let p: TestPlatform;
let dataDir: string;
let baseUrl: string;
let client: RootlineClient;
let userId: string;
let plantId: string;
let signingSecret: string;
const receiver = { got: [] as { body: string; headers: IncomingHttpHeaders }[], server: createServer() };

async function until<T>(check: () => Promise<T | undefined | null | false>, what: string): Promise<T> {
  for (let i = 0; i < 600; i++) {
    const value = await check();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} never happened`);
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'rootline-sdk-http-'));
  const { privateKey } = generateKeyPairSync('ed25519');
  p = await startTestPlatform(SERVICES, {
    CHAIN_DIFFICULTY: '8',
    DATA_DIR: dataDir,
    STORAGE_DRIVER: 'local',
    STORAGE_DIR: join(dataDir, 'files'),
    STORAGE_SIGNING_SECRET: 's'.repeat(32),
    UNSUBSCRIBE_SECRET: 'u'.repeat(32),
    AUDIT_SIGNING_KEY: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_POLL_MS: '50',
  });
  await p.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(p.app.server.address() as AddressInfo).port}`;
  receiver.server.on('request', (req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => {
      body += c;
    });
    req.on('end', () => {
      receiver.got.push({ body, headers: req.headers });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.server.listen(0, '127.0.0.1', () => r()));
});
afterAll(async () => {
  await new Promise((r) => receiver.server.close(r));
  await p?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('@rootline/sdk against the API', () => {
  it('registers an account and signs in, keeping the session token', async () => {
    client = createRootline({ baseUrl });
    const email = `sdk-${randomBytes(4).toString('hex')}@example.org`;
    const password = 'a long sdk test passphrase';
    const registered = await client.POST('/api/auth/register', { body: { email, password, name: 'Ada Grower' } });
    expect(registered.response.status).toBe(201);
    const session = await client.signIn(email, password);
    expect(client.token).toBe(session.token);
    userId = session.user.id;
    const me = await client.GET('/api/auth/session');
    expect(me.data?.data?.user?.id).toBe(userId);
  });

  it('cookie mode: the session cookie authenticates and the CSRF token goes with state-changing requests', async () => {
    // A cookie jar of one cookie, as a browser keeps it.
    let cookie: string | undefined;
    const jarFetch = async (request: Request) => {
      if (cookie) request.headers.set('cookie', cookie);
      const response = await fetch(request);
      const set = response.headers.get('set-cookie');
      if (set) cookie = set.split(';')[0];
      return response;
    };
    const browser = createRootline({ baseUrl, credentials: 'include', fetch: jarFetch });
    const me = await client.GET('/api/auth/session');
    const email = me.data!.data!.user!.email;
    await browser.signIn(email, 'a long sdk test passphrase');
    expect(browser.token).toBeUndefined();
    expect(cookie).toMatch(/^rootline_session=/);

    const body = {
      commonName: 'Cookie thyme',
      location: { latitude: 48.85, longitude: 2.35 },
      owner: { id: userId, name: 'Ada Grower' },
    };
    const made = await browser.POST('/api/plants/register', { body });
    expect(made.response.status).toBe(201);
    // The same request without the CSRF token is refused: the header is what let it through.
    const bare = await fetch(`${baseUrl}/api/plants/register`, {
      method: 'POST',
      headers: { cookie: cookie!, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(bare.status).toBe(403);
    expect(((await bare.json()) as { error: { details: unknown } }).error.details).toEqual({ reason: 'CSRF' });
  });

  it('registers a plant (201) with an Idempotency-Key; the same key replays the first answer', async () => {
    // A webhook first, so the registration is delivered to the local receiver.
    const port = (receiver.server.address() as AddressInfo).port;
    const hook = await client.POST('/api/transparency/webhooks', {
      body: {
        url: `http://127.0.0.1:${port}/hook`,
        events: ['plant.registered'],
        secret: 'sdk-test-secret-0123456789',
      },
    });
    expect(hook.response.status).toBe(201);
    signingSecret = hook.data!.data.signingSecret;

    const body = {
      commonName: 'SDK basil',
      location: { latitude: 48.85, longitude: 2.35 },
      owner: { id: userId, name: 'Ada Grower' },
    };
    const headers = { 'Idempotency-Key': crypto.randomUUID() };
    const first = await client.POST('/api/plants/register', { body, headers });
    expect(first.response.status).toBe(201);
    const plant = first.data!.data;
    plantId = plant.id;
    const again = await client.POST('/api/plants/register', { body, headers });
    expect(again.response.status).toBe(201);
    expect(again.response.headers.get('idempotent-replayed')).toBe('true');
    expect(again.data!.data.id).toBe(plant.id);
  });

  it('reads the plant back, typed', async () => {
    const plant = { id: plantId };
    const read = await client.GET('/api/plants/{plantId}', { params: { path: { plantId: plant.id } } });
    expect(read.response.status).toBe(200);
    const seen = read.data!.data;
    expect(seen.commonName).toBe('SDK basil');
    expect(seen.id).toBe(plant.id);
  });

  it('gives each POST a fresh key when the caller gives none, and pages through a list', async () => {
    const plant = { id: plantId };
    const body = {
      commonName: 'SDK basil',
      location: { latitude: 48.85, longitude: 2.35 },
      owner: { id: userId, name: 'Ada Grower' },
    };
    const second = await client.POST('/api/plants/register', { body });
    expect(second.response.headers.get('idempotent-replayed')).toBeNull();
    expect(second.data!.data.id).not.toBe(plant.id);
    await client.POST('/api/plants/register', { body });

    // Paged: 3 plants of that name, 2 a page.
    const found: string[] = [];
    for await (const item of paginate(client, '/api/plants/search', { query: { q: 'SDK basil', limit: 2 } })) {
      found.push(item.id);
    }
    expect(found).toHaveLength(3);
    expect(new Set(found).size).toBe(3);
    expect(found).toContain(plant.id);
  });

  it("verifies the plant's certificate and an audit log proof offline, with the platform's key", async () => {
    const plant = { id: plantId };
    const key = await client.GET('/api/transparency/audit/public-key');
    const publicKey = key.data!.data;
    const signed = await until(async () => {
      const res = await client.GET('/api/transparency/certificate/{plantId}', {
        params: { path: { plantId: plant.id } },
      });
      return res.data?.data.certificate.auditLog ? res.data.data : null;
    }, 'a certificate with its audit log proof');
    expect(await verifyCertificate(signed, publicKey)).toEqual({ valid: true, problems: [] });
    const tampered = structuredClone(signed);
    tampered.certificate.plant.commonName = 'Mint';
    expect((await verifyCertificate(tampered, publicKey)).valid).toBe(false);

    // An audit log inclusion proof from the API, verified offline.
    const audit = signed.certificate.auditLog!;
    const proof = await client.GET('/api/transparency/audit/{index}/proof', {
      params: { path: { index: audit.index }, query: { treeSize: audit.treeSize } },
    });
    expect(proof.response.status).toBe(200);
    expect(await verifyInclusion(proof.data!.data)).toEqual({ valid: true, problems: [] });
  });

  it('verifies the webhook delivery of the registration, as a receiver would', async () => {
    const plant = { id: plantId };
    const delivery = await until(
      async () => receiver.got.find((d) => d.body.includes(plant.id)),
      'a webhook delivery of the plant',
    );
    const secret = signingSecret;
    const verified = await verifyWebhook({ body: delivery.body, headers: delivery.headers, secret });
    expect(verified).toMatchObject({ valid: true, payload: { event: 'plant.registered' } });
    expect(
      (await verifyWebhook({ body: delivery.body, headers: delivery.headers, secret: 'x'.repeat(20) })).valid,
    ).toBe(false);
  });
});
