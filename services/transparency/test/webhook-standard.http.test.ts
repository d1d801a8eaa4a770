import { generateKeyPairSync } from 'node:crypto';
import { type Actor, contextToHeaders, newId, plantRegistered } from '@rootline/contracts';
import { startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import { startWebhookReceiver, type WebhookReceiver } from '@rootline/testing';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETRY_JITTER, RETRY_SCHEDULE_MS } from '../src/domain/webhook-message.js';
import { service as transparency } from '../src/service.js';

const fay: Actor = { id: 'usr_faystandard', role: 'GROWER' };
const as = (a: Actor) => ({ role: a.role, sub: a.id });
/** 5 s, 5 min, 30 min, 2 h… become 5 ms, 300 ms, 1.8 s, 7.2 s. */
const SCALE = 0.001;
/**
 * How late a retry may arrive beyond its jittered delay: recording the attempt, the wake-up timer, one claim and the
 * POST, on a loaded test machine (a 5 ms retry once came 362 ms after its attempt). The poll must not be in it: it is
 * 10 s here, so a retry that waited for it would come at least 10 s after the attempt before (before the wake-up
 * timer, a 300 ms retry arrived 836 ms after its attempt with a poll of 1 s).
 */
const LATENESS_MS = 1500;

async function until<T>(get: () => T | undefined | Promise<T | undefined>, what: string): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const v = await get();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`${what} never happened`);
}

describe('Standard Webhooks: payload, generated secrets, secret rules and retry times', () => {
  let p: TestPlatform;
  let r: WebhookReceiver;

  const publish = (plantId: string, actor: Actor) =>
    p.bus.publish({
      id: newId('evt', Date.now()),
      subject: plantRegistered.subject,
      occurredAt: new Date().toISOString(),
      payload: { plantId, commonName: 'Sorrel', ownerId: actor.id },
      headers: contextToHeaders({ requestId: newId('req', Date.now()), actor }),
    });
  const create = (body: Record<string, unknown>, url = r.url) =>
    p.http('POST', '/api/webhooks', { ...as(fay), body: { url, events: ['plant.registered'], ...body } });

  beforeAll(async () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    p = await startTestPlatform([transparency], {
      AUDIT_SIGNING_KEY: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
      WEBHOOK_ALLOW_PRIVATE: 'true',
      // A poll far longer than any retry delay: only the wake-up timer can send a retry on time.
      WEBHOOK_POLL_MS: '10000',
      WEBHOOK_RETRY_SCALE: String(SCALE),
    });
    r = await startWebhookReceiver();
  });
  afterAll(async () => {
    await r?.stop();
    await p?.stop();
  });

  it('generates a whsec_ secret when none is given, shows it once, and the default verify call takes it', async () => {
    const made = await create({});
    expect(made.status).toBe(201);
    const { id, signingSecret } = made.body.data as { id: string; signingSecret: string };
    expect(signingSecret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(signingSecret.slice(6), 'base64')).toHaveLength(24);
    const again = await create({});
    expect(again.body.data.signingSecret).not.toBe(signingSecret);
    expect((await p.http('DELETE', `/api/transparency/webhooks/${again.body.data.id}`, as(fay))).status).toBe(200);
    const read = await p.http('GET', `/api/transparency/webhooks/${id}`, as(fay));
    expect(read.status).toBe(200);
    expect(JSON.stringify(read.body)).not.toContain(signingSecret.slice(6));

    const before = r.got.length;
    await publish('plt_standard01', fay);
    const got = await until(
      () => r.got.slice(before).find((g) => g.body.includes('plt_standard01')),
      'the delivery of plt_standard01',
    );
    // The library's default call: the secret exactly as the answer showed it, the raw body and the headers.
    const payload = new Webhook(signingSecret).verify(got.body, got.headers as Record<string, string>);
    expect(payload).toMatchObject({
      type: 'plant.registered',
      event: 'plant.registered',
      data: { plantId: 'plt_standard01' },
    });
    expect(Number.isNaN(Date.parse((payload as { timestamp: string }).timestamp))).toBe(false);
  });

  it('accepts a secret of 16 and of 200 characters from ! to ~, and refuses 15, 201 and any space', async () => {
    const visible = `${'!~'.repeat(4)}abcdefgh`;
    expect(visible).toHaveLength(16);
    for (const secret of [visible, 'x'.repeat(200), `${'Zz09'.repeat(49)}!~`]) {
      const made = await create({ secret });
      expect(made.status, secret).toBe(201);
    }
    const refused = [
      'x'.repeat(15),
      'x'.repeat(201),
      'a shared secret with spaces',
      `${'y'.repeat(20)}\t`,
      'é'.repeat(20),
    ];
    for (const secret of refused) {
      const made = await create({ secret });
      expect(made.status, JSON.stringify(secret)).toBe(400);
      expect(made.body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
      expect(made.body.error.details[0].field).toBe('body/secret');
    }
  });

  it('retries within ±20 % of each scheduled delay, not at the next poll (a 5 s retry came 6.8 s after its attempt)', async () => {
    const down = await startWebhookReceiver();
    down.state.status = 500;
    try {
      const made = await create({ secret: 'fay-retry-secret-0123456789' }, down.url);
      expect(made.status).toBe(201);
      await publish('plt_retrytimes', fay);
      // The first attempt and three retries: 5 ms, 300 ms and 1.8 s after it, each ±20 %.
      await until(() => (down.got.length >= 4 ? true : undefined), 'four attempts');
      const at = down.got.slice(0, 4).map((g) => g.arrivedAt);
      expect(new Set(down.got.slice(0, 4).map((g) => g.headers['webhook-id'])).size).toBe(1);
      const gaps = at.slice(1).map((t, i) => t - at[i]!);
      gaps.forEach((gap, i) => {
        const base = RETRY_SCHEDULE_MS[i]! * SCALE;
        const bounds = [Math.floor(base * (1 - RETRY_JITTER)) - 1, base * (1 + RETRY_JITTER) + LATENESS_MS];
        expect(gap, `retry ${i + 1}: ${gap.toFixed(1)} ms after the attempt before`).toBeGreaterThanOrEqual(bounds[0]!);
        expect(gap, `retry ${i + 1}: ${gap.toFixed(1)} ms after the attempt before`).toBeLessThanOrEqual(bounds[1]!);
      });
    } finally {
      await down.stop();
    }
  });
});
