import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createNatsBus } from '@rootline/bus';
import { type Actor, contextToHeaders, newId, plantRegistered } from '@rootline/contracts';
import { startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import { createLogger, startService } from '@rootline/host';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { service as transparency } from '../src/service.js';

interface Received {
  body: string;
  headers: IncomingHttpHeaders;
}

const alice: Actor = { id: 'usr_alicesecr', role: 'GROWER' };
const SECRET = 'alice-sealed-secret-0123456789';
const ROTATED = 'alice-rotated-secret-9876543210';
const LEGACY = 'a-secret-stored-in-plain-text-42';
const quiet = { info: () => {}, warn: () => {}, error: () => {} };

describe('webhook secrets sealed at rest', () => {
  let p: TestPlatform;
  const got: Received[] = [];
  let server: Server;
  let url: string;
  const env = {
    AUDIT_SIGNING_KEY: generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_POLL_MS: '50',
  };

  const stored = async (id: string) => {
    const rows = (await p.database.db.execute(
      sql`select secret from transparency.webhooks where id = ${id}`,
    )) as unknown as { secret: string }[];
    return rows[0]?.secret;
  };
  /** Deliveries the receiver got of webhook-id `id`, or of kind `kind`. */
  const receivedOf = (pred: (body: { event: string; data: { plantId?: string } }) => boolean) =>
    got.filter((g) => pred(JSON.parse(g.body)));

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => {
        body += c;
      });
      req.on('end', () => {
        got.push({ body, headers: req.headers });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    p = await startTestPlatform([transparency], env);
  });
  afterAll(async () => {
    await p?.stop();
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('stores the secret sealed, and deliveries and test sends still verify with it; a rotation is sealed too', async () => {
    const made = await p.http('POST', '/api/webhooks', {
      role: 'GROWER',
      sub: alice.id,
      body: { url, events: ['plant.registered'], secret: SECRET },
    });
    expect(made.status).toBe(201);
    const id = (made.body as { data: { id: string } }).data.id;
    const column = await stored(id);
    expect(column).toMatch(/^v2:[A-Za-z0-9_-]{11}:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]+:[A-Za-z0-9_-]{22}$/);
    expect(column).not.toContain(SECRET);
    expect(column).not.toContain(Buffer.from(SECRET).toString('base64url'));

    await p.bus.publish({
      id: newId('evt', Date.now()),
      subject: plantRegistered.subject,
      occurredAt: new Date().toISOString(),
      payload: { plantId: 'plt_sealed01', commonName: 'Tomato' },
      headers: contextToHeaders({ requestId: newId('req', Date.now()), actor: alice }),
    });
    await expect.poll(() => receivedOf((b) => b.data.plantId === 'plt_sealed01').length, { timeout: 15_000 }).toBe(1);
    const [delivery] = receivedOf((b) => b.data.plantId === 'plt_sealed01');
    const verified = new Webhook(SECRET, { format: 'raw' }).verify(
      delivery!.body,
      delivery!.headers as Record<string, string>,
    ) as { event: string };
    expect(verified.event).toBe('plant.registered');

    const tested = await p.http('POST', `/api/transparency/webhooks/${id}/test`, { role: 'GROWER', sub: alice.id });
    expect(tested.status).toBe(200);
    const testId = (tested.body as { data: { deliveryId: string; delivered: boolean } }).data;
    expect(testId.delivered).toBe(true);
    const test = got.find((g) => g.headers['webhook-id'] === testId.deliveryId);
    expect(() =>
      new Webhook(SECRET, { format: 'raw' }).verify(test!.body, test!.headers as Record<string, string>),
    ).not.toThrow();

    const changed = await p.http('PATCH', `/api/transparency/webhooks/${id}`, {
      role: 'GROWER',
      sub: alice.id,
      body: { secret: ROTATED },
    });
    expect(changed.status).toBe(200);
    const rotated = await stored(id);
    expect(rotated).toMatch(/^v2:/);
    expect(rotated).not.toContain(ROTATED);
    expect(rotated).not.toBe(column);
    const again = await p.http('POST', `/api/transparency/webhooks/${id}/test`, { role: 'GROWER', sub: alice.id });
    const againId = (again.body as { data: { deliveryId: string } }).data.deliveryId;
    const second = got.find((g) => g.headers['webhook-id'] === againId);
    const headers = second!.headers as Record<string, string>;
    expect(() => new Webhook(ROTATED, { format: 'raw' }).verify(second!.body, headers)).not.toThrow();
    expect(() => new Webhook(SECRET, { format: 'raw' }).verify(second!.body, headers)).toThrow();
  });

  it('keeps a secret stored in plain text working, and seals it when a replica starts', async () => {
    const made = await p.http('POST', '/api/webhooks', {
      role: 'GROWER',
      sub: alice.id,
      body: { url, events: ['plant.registered'], secret: SECRET },
    });
    const id = (made.body as { data: { id: string } }).data.id;
    // A row as an older version wrote it.
    await p.database.db.execute(sql`update transparency.webhooks set secret = ${LEGACY} where id = ${id}`);

    const tested = await p.http('POST', `/api/transparency/webhooks/${id}/test`, { role: 'GROWER', sub: alice.id });
    const deliveryId = (tested.body as { data: { deliveryId: string; delivered: boolean } }).data.deliveryId;
    const test = got.find((g) => g.headers['webhook-id'] === deliveryId);
    expect(() =>
      new Webhook(LEGACY, { format: 'raw' }).verify(test!.body, test!.headers as Record<string, string>),
    ).not.toThrow();

    // A second replica with the same key seals plain rows as it starts.
    const bus = await createNatsBus({ url: p.infra.nats.url, name: 'transparency-2', log: quiet });
    const replica = await startService(transparency, {
      bus,
      database: p.database,
      log: createLogger('test', 'silent'),
      env: { ...env },
    });
    try {
      const column = await stored(id);
      expect(column).toMatch(/^v2:/);
      expect(column).not.toContain(LEGACY);
      const after = await p.http('POST', `/api/transparency/webhooks/${id}/test`, { role: 'GROWER', sub: alice.id });
      const afterId = (after.body as { data: { deliveryId: string } }).data.deliveryId;
      const sent = got.find((g) => g.headers['webhook-id'] === afterId);
      expect(() =>
        new Webhook(LEGACY, { format: 'raw' }).verify(sent!.body, sent!.headers as Record<string, string>),
      ).not.toThrow();
    } finally {
      await replica.stop();
      await bus.close();
    }
  });
});
