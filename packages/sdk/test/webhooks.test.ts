import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { standardWebhooksSecret, webhookMessage } from '../../../services/transparency/src/domain/webhook-message.js';
import { verifyWebhook } from '../src/index.js';

// Messages come from the transparency service's own code (and the standardwebhooks library); the SDK shares none.

const payload = {
  event: 'plant.registered',
  timestamp: '2026-01-02T03:04:05.000Z',
  data: { plantId: 'plt_01HZX3K6Q2W8N4B7T5R9V0C1MD', commonName: 'Basil', tags: ['é', '𝄞'], n: 1e21 },
};
const now = Math.floor(Date.now() / 1000);

describe('verifyWebhook', () => {
  for (const [kind, secret] of [
    ['whsec_ secret (its base64 bytes)', `whsec_${randomBytes(24).toString('base64')}`],
    ['plain secret (its UTF-8 bytes)', 'a plain shared secret of some length'],
  ] as const) {
    it(`accepts a delivery signed with a ${kind}`, async () => {
      const msg = webhookMessage(secret, 'dlv_1', now, payload);
      const result = await verifyWebhook({ body: msg.body, headers: msg.headers, secret, now: now + 10 });
      expect(result).toEqual({
        valid: true,
        problems: [],
        payload: { type: payload.event, ...payload, signature: expect.any(String) },
      });
      // The Standard Webhooks library agrees with the same headers.
      expect(new Webhook(standardWebhooksSecret(secret)).verify(msg.body, msg.headers)).toMatchObject(payload);
      // Headers as a Headers object, the body as bytes.
      const bytes = new TextEncoder().encode(msg.body);
      expect((await verifyWebhook({ body: bytes, headers: new Headers(msg.headers), secret, now })).valid).toBe(true);
    });
  }

  it('refuses another secret, a changed body, an old timestamp or missing headers', async () => {
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    const msg = webhookMessage(secret, 'dlv_2', now, payload);
    const check = (over: Partial<Parameters<typeof verifyWebhook>[0]>) =>
      verifyWebhook({ body: msg.body, headers: msg.headers, secret, now, ...over });

    expect((await check({ secret: `whsec_${randomBytes(24).toString('base64')}` })).problems).toEqual([
      'webhook-signature does not match the body',
      'the payload signature does not match',
    ]);
    expect((await check({ body: msg.body.replace('Basil', 'Mint') })).problems).toEqual([
      'webhook-signature does not match the body',
      'the payload signature does not match',
    ]);
    expect((await check({ now: now + 301 })).problems).toEqual(['webhook-timestamp is not within 5 minutes of now']);
    expect((await check({ headers: { ...msg.headers, 'webhook-id': 'dlv_3' } })).problems).toEqual([
      'webhook-signature does not match the body',
    ]);
    const { 'webhook-signature': _, ...unsigned } = msg.headers;
    expect((await check({ headers: unsigned })).valid).toBe(false);
  });

  it('checks the payload signature on its own: a body re-signed in the headers only is refused', async () => {
    const secret = 'a plain shared secret of some length';
    const forged = webhookMessage(secret, 'dlv_4', now, payload);
    const body = JSON.stringify({ ...JSON.parse(forged.body), data: { plantId: 'plt_forged' } });
    const resigned = webhookMessage(secret, 'dlv_4', now, payload);
    const { createHmac } = await import('node:crypto');
    const v1 = createHmac('sha256', secret).update(`dlv_4.${now}.${body}`).digest('base64');
    const headers = { ...resigned.headers, 'webhook-signature': `v1,${v1}` };
    expect((await verifyWebhook({ body, headers, secret, now })).problems).toEqual([
      'the payload signature does not match',
    ]);
  });
});
