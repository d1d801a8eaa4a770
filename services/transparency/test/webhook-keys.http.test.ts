import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNatsBus } from '@rootline/bus';
import { type Actor, contextToHeaders, newId, plantRegistered } from '@rootline/contracts';
import { startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import { createLogger, startService } from '@rootline/host';
import { startWebhookReceiver, type WebhookReceiver } from '@rootline/testing';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { service as transparency } from '../src/service.js';

const alice: Actor = { id: 'usr_alicekeys', role: 'GROWER' };
const SECRET = 'alice-secret-that-outlives-keys-42';
const quiet = { info: () => {}, warn: () => {}, error: () => {} };
const keyOf = () => randomBytes(32).toString('base64');

/**
 * Keys that survive a redeploy: transparency re-created with a fresh DATA_DIR (a new container) keeps signing
 * deliveries with the owners' secrets when its WEBHOOK_SECRET_KEY is configured, refuses to start when the key
 * that sealed them is gone, and re-seals every secret under a new key on rotation.
 */
describe('webhook-secret key across restarts', () => {
  let p: TestPlatform;
  let receiver: WebhookReceiver;
  let webhookId: string;
  const dirs: string[] = [];
  const freshDataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'rootline-transparency-data-'));
    dirs.push(dir);
    return dir;
  };
  const first = keyOf();
  const base = {
    AUDIT_SIGNING_KEY: generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_POLL_MS: '50',
  };

  const stored = async () => {
    const rows = (await p.database.db.execute(
      sql`select secret from transparency.webhooks where id = ${webhookId}`,
    )) as unknown as { secret: string }[];
    return rows[0]?.secret as string;
  };

  /** Replaces the running transparency with a new instance on these settings (a re-created container). */
  const restart = async (env: Record<string, string>) => {
    await p.services.get('transparency')?.stop();
    p.services.delete('transparency');
    const bus = await createNatsBus({ url: p.infra.nats.url, name: 'transparency', log: quiet });
    try {
      const running = await startService(transparency, {
        bus,
        database: p.database,
        log: createLogger('test', 'silent'),
        env: { ...base, ...env },
      });
      const stop = running.stop.bind(running);
      const stopAndClose = async () => {
        await stop();
        await bus.close();
      };
      p.services.set('transparency', { ...running, stop: stopAndClose });
    } catch (err) {
      await bus.close();
      throw err;
    }
  };

  /** Publishes a plant registration of alice and answers the delivery the receiver got for it, verified. */
  const deliveredAndVerified = async (plantId: string) => {
    await p.bus.publish({
      id: newId('evt', Date.now()),
      subject: plantRegistered.subject,
      occurredAt: new Date().toISOString(),
      payload: { plantId, commonName: 'Basil' },
      headers: contextToHeaders({ requestId: newId('req', Date.now()), actor: alice }),
    });
    const of = () => receiver.got.filter((g) => JSON.parse(g.body).data.plantId === plantId);
    await expect.poll(() => of().length, { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    const [delivery] = of();
    return new Webhook(SECRET, { format: 'raw' }).verify(
      delivery!.body,
      delivery!.headers as Record<string, string>,
    ) as {
      event: string;
    };
  };

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    p = await startTestPlatform([transparency], { ...base, WEBHOOK_SECRET_KEY: first, DATA_DIR: freshDataDir() });
    const made = await p.http('POST', '/api/webhooks', {
      role: 'GROWER',
      sub: alice.id,
      body: { url: receiver.url, events: ['plant.registered'], secret: SECRET },
    });
    expect(made.status).toBe(201);
    webhookId = (made.body as { data: { id: string } }).data.id;
  });
  afterAll(async () => {
    await p?.stop();
    await receiver?.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('signs deliveries with the owner secret, sealed under the configured key', async () => {
    expect(await stored()).toMatch(/^v2:/);
    expect((await deliveredAndVerified('plt_keysbefore')).event).toBe('plant.registered');
  });

  it('keeps signing with the owner secret after a restart with a fresh DATA_DIR and the same configured key', async () => {
    const dir = freshDataDir();
    await restart({ WEBHOOK_SECRET_KEY: first, DATA_DIR: dir });
    expect((await deliveredAndVerified('plt_keysafter')).event).toBe('plant.registered');
    // Nothing was generated into the new folder: the configured key is the key.
    expect(existsSync(join(dir, 'transparency-webhook-secret.key'))).toBe(false);
  });

  it('refuses to start with a fresh DATA_DIR and no key, naming WEBHOOK_SECRET_KEY, and generates none', async () => {
    const dir = freshDataDir();
    await expect(restart({ DATA_DIR: dir })).rejects.toThrow(
      /^WEBHOOK_SECRET_KEY: 1 webhook secret\(s\) in the database are sealed under a key \(key id [A-Za-z0-9_-]{11}\) that is gone/,
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses to start with another key and no earlier key to open the secrets', async () => {
    await expect(restart({ WEBHOOK_SECRET_KEY: keyOf(), DATA_DIR: freshDataDir() })).rejects.toThrow(
      /WEBHOOK_SECRET_KEY: 1 webhook secret\(s\) cannot be opened .* WEBHOOK_SECRET_KEYS_PREVIOUS/,
    );
  });

  it('re-seals every secret under a new key on rotation, after which the old key may go', async () => {
    const before = await stored();
    const next = keyOf();
    await restart({ WEBHOOK_SECRET_KEY: next, WEBHOOK_SECRET_KEYS_PREVIOUS: first, DATA_DIR: freshDataDir() });
    const after = await stored();
    expect(after).toMatch(/^v2:/);
    expect(after.split(':')[1]).not.toBe(before.split(':')[1]);
    expect((await deliveredAndVerified('plt_keysrotated')).event).toBe('plant.registered');

    // The old key is no longer needed once every secret is under the new one.
    await restart({ WEBHOOK_SECRET_KEY: next, DATA_DIR: freshDataDir() });
    expect(await stored()).toBe(after);
    expect((await deliveredAndVerified('plt_keysoldgone')).event).toBe('plant.registered');
    const tested = await p.http('POST', `/api/transparency/webhooks/${webhookId}/test`, {
      role: 'GROWER',
      sub: alice.id,
    });
    expect((tested.body as { data: { delivered: boolean } }).data.delivered).toBe(true);
  });
});
