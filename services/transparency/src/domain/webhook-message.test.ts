import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  payloadSignature,
  retryDelayMs,
  standardWebhooksSecret,
  webhookKey,
  webhookMessage,
} from './webhook-message.js';

describe('webhook messages', () => {
  it('key a plain secret by its UTF-8 bytes and a whsec_ secret by the bytes it encodes, one key either way', () => {
    expect(webhookKey('a-long-random-shared-secret')).toEqual(Buffer.from('a-long-random-shared-secret'));
    const shown = standardWebhooksSecret('a-long-random-shared-secret');
    expect(shown).toBe(`whsec_${Buffer.from('a-long-random-shared-secret').toString('base64')}`);
    expect(webhookKey(shown)).toEqual(webhookKey('a-long-random-shared-secret'));
    expect(standardWebhooksSecret(shown)).toBe(shown);
  });

  it('sign the canonical JSON of event, timestamp and data', () => {
    const payload = {
      event: 'plant.registered',
      timestamp: '2026-11-23T05:00:00.000Z',
      data: { plantId: 'plt_1', commonName: 'Tomato' },
    };
    const signed =
      '{"data":{"commonName":"Tomato","plantId":"plt_1"},"event":"plant.registered","timestamp":"2026-11-23T05:00:00.000Z"}';
    const hex = createHmac('sha256', 'secret-secret-secret').update(signed).digest('hex');
    expect(payloadSignature('secret-secret-secret', payload)).toBe(`sha256=${hex}`);
    const m = webhookMessage('secret-secret-secret', 'whd_1', 1_800_000_000, payload);
    expect(JSON.parse(m.body)).toEqual({ ...payload, signature: `sha256=${hex}` });
    expect(m.headers['x-rootline-signature']).toBe(`sha256=${hex}`);
  });

  it('retry on the Standard Webhooks schedule with jitter, then stop', () => {
    expect(retryDelayMs(1, 0.5)).toBe(5000);
    expect(retryDelayMs(2, 0)).toBe(240_000);
    expect(retryDelayMs(2, 1)).toBe(360_000);
    expect(retryDelayMs(9, 0.5)).toBe(86_400_000);
    expect(retryDelayMs(10, 0.5)).toBeNull();
  });
});
