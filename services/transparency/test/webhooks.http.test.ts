import { createHmac, generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Actor, contextToHeaders, listingPublished, newId, plantRegistered } from '@rootline/contracts';
import { startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import canonicalize from 'canonicalize';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { service as transparency } from '../src/service.js';

interface Received {
  body: string;
  headers: IncomingHttpHeaders;
}

/** A receiver that records what it gets and answers `status`. */
function receiver(port: number, status = 200) {
  const got: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => {
      body += c;
    });
    req.on('end', () => {
      got.push({ body, headers: req.headers });
      res.writeHead(status).end();
    });
  });
  return {
    got,
    start: () => new Promise<void>((r) => server.listen(port, '127.0.0.1', () => r())),
    stop: () => new Promise<void>((r) => server.close(() => r())),
  };
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

async function until(check: () => boolean | Promise<boolean>, what: string) {
  for (let i = 0; i < 600; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${what} never happened`);
}

const alice: Actor = { id: 'usr_alicehook', role: 'GROWER' };
const bob: Actor = { id: 'usr_bobhook01', role: 'USER' };
const SECRET = 'alice-shared-secret-0123456789';

describe('webhooks over HTTP', () => {
  let p: TestPlatform;
  const { privateKey } = generateKeyPairSync('ed25519');

  const publish = (subject: string, payload: object, actor: Actor) =>
    p.bus.publish({
      id: newId('evt', Date.now()),
      subject,
      occurredAt: new Date().toISOString(),
      payload,
      headers: contextToHeaders({ requestId: newId('req', Date.now()), actor }),
    });

  beforeAll(async () => {
    p = await startTestPlatform([transparency], {
      AUDIT_SIGNING_KEY: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_POLL_MS: '50',
      // 5 s, 5 min, 30 min, 2 h… become 1 ms, 60 ms, 360 ms, 1.4 s…
      WEBHOOK_RETRY_SCALE: '0.0002',
    });
  });
  afterAll(async () => {
    await p?.stop();
  });

  it('delivers every event of its owner once, signed, after the receiver comes back; never another user’s', async () => {
    const port = await freePort();
    const made = await p.http('POST', '/api/webhooks', {
      role: 'GROWER',
      sub: alice.id,
      body: { url: `http://127.0.0.1:${port}/hook`, events: ['plant.registered', 'listing.published'], secret: SECRET },
    });
    expect(made.status).toBe(201);
    const hook = (made.body as { data: { id: string; ownerId: string; status: string } }).data;
    expect(hook).toMatchObject({ ownerId: alice.id, status: 'active' });
    expect(JSON.stringify(made.body)).not.toContain(SECRET);
    // The secret as Rootline shows it once, in the Standard Webhooks form, is what the library takes as it is.
    const { signingSecret } = (made.body as { data: { signingSecret: string } }).data;
    expect(signingSecret).toBe(`whsec_${Buffer.from(SECRET).toString('base64')}`);

    const plants = ['plt_hookA01', 'plt_hookB01', 'plt_hookC01', 'plt_hookD01', 'plt_hookE01'];
    for (const id of plants) await publish(plantRegistered.subject, { plantId: id, commonName: 'Tomato' }, alice);
    // Bob's events: a plant he registered, and his listing, are not Alice's data.
    await publish(plantRegistered.subject, { plantId: 'plt_bobplant1', commonName: 'Basil' }, bob);
    const listing = { listingId: 'lst_bob00001', title: 'Basil', category: 'seedling', price: 100, currency: 'EUR' };
    await publish(listingPublished.subject, { ...listing, sellerId: bob.id }, bob);

    const deliveries = async () =>
      (
        (
          await p.http('GET', `/api/transparency/webhooks/${hook.id}/deliveries?limit=100`, {
            role: 'GROWER',
            sub: alice.id,
          })
        ).body as { data: { status: string; attempts: number; lastError: string | null }[] }
      ).data;
    // The receiver is down: every delivery fails at least twice before it comes up.
    await until(async () => {
      const d = await deliveries();
      return d.length === 5 && d.every((x) => x.attempts >= 2);
    }, 'two failed attempts of each delivery');
    expect((await deliveries())[0]?.lastError).toMatch(/ECONNREFUSED/);

    const r = receiver(port);
    await r.start();
    try {
      await until(async () => (await deliveries()).every((x) => x.status === 'delivered'), 'every delivery');
    } finally {
      await r.stop();
    }

    const ids = r.got.map((g) => g.headers['webhook-id']);
    expect(new Set(ids).size).toBe(ids.length);
    const verifier = new Webhook(SECRET, { format: 'raw' });
    const bodies = r.got.map((g) => {
      const verified = verifier.verify(g.body, g.headers as Record<string, string>) as {
        type: string;
        event: string;
        timestamp: string;
        data: { plantId: string };
        signature: string;
      };
      // `type` repeats `event` (Standard Webhooks' name for it); the signature covers `{ data, event, timestamp }`.
      const { signature, type, ...signed } = verified;
      expect(type).toBe(signed.event);
      const hex = createHmac('sha256', SECRET)
        .update(canonicalize(signed) as string)
        .digest('hex');
      expect(signature).toBe(`sha256=${hex}`);
      expect(g.headers['x-rootline-signature']).toBe(signature);
      return verified;
    });
    const shown = new Webhook(signingSecret);
    for (const g of r.got) expect(() => shown.verify(g.body, g.headers as Record<string, string>)).not.toThrow();
    expect(bodies.map((b) => b.data.plantId).sort()).toEqual([...plants].sort());
    expect(bodies.every((b) => b.event === 'plant.registered')).toBe(true);
    // A tampered body fails the Standard Webhooks check.
    const first = r.got[0]!;
    expect(() =>
      verifier.verify(first.body.replace('Tomato', 'Potato'), first.headers as Record<string, string>),
    ).toThrow();
  });

  it('takes a Standard Webhooks secret (whsec_) as it is: new Webhook(secret) verifies, and sha256= is keyed with its bytes', async () => {
    const port = await freePort();
    const secret = `whsec_${Buffer.from('k'.repeat(32)).toString('base64')}`;
    const made = await p.http('POST', '/api/webhooks', {
      role: 'GROWER',
      sub: alice.id,
      body: { url: `http://127.0.0.1:${port}/hook`, events: ['plant.registered'], secret },
    });
    expect(made.status).toBe(201);
    const hook = (made.body as { data: { id: string; signingSecret: string } }).data;
    expect(hook.signingSecret).toBe(secret);
    const r = receiver(port);
    await r.start();
    try {
      const sent = await p.http('POST', `/api/transparency/webhooks/${hook.id}/test`, {
        role: 'GROWER',
        sub: alice.id,
      });
      expect(sent.status).toBe(200);
    } finally {
      await r.stop();
    }
    const got = r.got[0]!;
    const verified = new Webhook(secret).verify(got.body, got.headers as Record<string, string>) as {
      signature: string;
      type: string;
    };
    const { signature, type: _type, ...signed } = verified;
    // The spec's signature in one line: hex HMAC-SHA256 of the canonical JSON, keyed with the secret's key bytes.
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    expect(signature).toBe(
      `sha256=${createHmac('sha256', key)
        .update(canonicalize(signed) as string)
        .digest('hex')}`,
    );
  });

  it('sends another user’s events to their own webhook only', async () => {
    const port = await freePort();
    const r = receiver(port);
    await r.start();
    try {
      const made = await p.http('POST', '/api/transparency/webhooks', {
        role: 'USER',
        sub: bob.id,
        body: {
          url: `http://127.0.0.1:${port}/`,
          events: ['listing.published'],
          secret: 'bob-secret-0123456789abcdef',
        },
      });
      expect(made.status).toBe(201);
      await publish(
        listingPublished.subject,
        {
          listingId: 'lst_bob00002',
          sellerId: bob.id,
          title: 'Kale',
          category: 'seedling',
          price: 100,
          currency: 'EUR',
        },
        bob,
      );
      await publish(plantRegistered.subject, { plantId: 'plt_alice0009', commonName: 'Leek' }, alice);
      await until(() => r.got.length >= 1, 'bob’s listing');
      expect(JSON.parse(r.got[0]!.body)).toMatchObject({
        event: 'listing.published',
        data: { listingId: 'lst_bob00002' },
      });
      const hookId = (made.body as { data: { id: string } }).data.id;
      const theirs = await p.http('GET', `/api/transparency/webhooks/${hookId}/deliveries`, {
        role: 'GROWER',
        sub: alice.id,
      });
      expect(theirs.status).toBe(403);
      const list = await p.http('GET', '/api/transparency/webhooks', { role: 'USER', sub: bob.id });
      expect((list.body as { data: { id: string }[] }).data.map((w) => w.id)).toEqual([hookId]);
      const notYours = await p.http('DELETE', `/api/transparency/webhooks/${hookId}`, {
        role: 'GROWER',
        sub: alice.id,
      });
      expect(notYours.status).toBe(403);
      const gone = await p.http('DELETE', `/api/transparency/webhooks/${hookId}`, { role: 'USER', sub: bob.id });
      expect(gone.body).toMatchObject({ success: true, data: { id: hookId, deleted: true } });
      const again = await p.http('DELETE', `/api/transparency/webhooks/${hookId}`, { role: 'USER', sub: bob.id });
      expect(again.status).toBe(404);
      expect((await p.http('GET', '/api/transparency/webhooks', { role: 'USER', sub: bob.id })).body).toMatchObject({
        data: [],
      });
    } finally {
      await r.stop();
    }
  });

  it('disables a webhook whose receiver answers 410 Gone', async () => {
    const port = await freePort();
    const r = receiver(port, 410);
    await r.start();
    try {
      const owner: Actor = { id: 'usr_carolhook', role: 'USER' };
      const made = await p.http('POST', '/api/webhooks', {
        role: 'USER',
        sub: owner.id,
        body: { url: `http://127.0.0.1:${port}/`, events: ['plant.registered'], secret: 'carol-secret-0123456789abc' },
      });
      await publish(plantRegistered.subject, { plantId: 'plt_carol0001', commonName: 'Mint' }, owner);
      const id = (made.body as { data: { id: string } }).data.id;
      await until(async () => {
        const list = await p.http('GET', '/api/transparency/webhooks', { role: 'USER', sub: owner.id });
        return (list.body as { data: { id: string; status: string }[] }).data[0]?.status === 'disabled';
      }, 'the webhook disabled');
      expect(r.got.length).toBe(1);
      expect(id).toMatch(/^whk_/);
    } finally {
      await r.stop();
    }
  });

  it('refuses unknown kinds, bad addresses and callers without a session', async () => {
    const base = { url: 'https://hooks.example.org/x', secret: 'x'.repeat(20) };
    const unknown = await p.http('POST', '/api/webhooks', {
      role: 'USER',
      body: { ...base, events: ['plant.exploded'] },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
    // The kinds are an enum in the contract: the answer names the field and the rule it broke.
    expect(JSON.stringify(unknown.body)).toContain('body/events/0 must be equal to one of the allowed values');
    const ftp = await p.http('POST', '/api/webhooks', {
      role: 'USER',
      body: { ...base, url: 'ftp://x', events: ['plant.registered'] },
    });
    expect(ftp.status).toBe(400);
    const short = await p.http('POST', '/api/webhooks', {
      role: 'USER',
      body: { ...base, secret: 'short', events: ['plant.registered'] },
    });
    expect(short.status).toBe(400);
    expect((await p.http('POST', '/api/webhooks', { body: { ...base, events: ['plant.registered'] } })).status).toBe(
      401,
    );
  });
});
