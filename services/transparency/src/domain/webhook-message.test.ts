import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  EPCIS_QUERY_RESULT,
  GENERATED_SECRET_BYTES,
  generatedWebhookSecret,
  payloadSignature,
  RETRY_SCHEDULE_MS,
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
    expect(JSON.parse(m.body)).toEqual({ type: payload.event, ...payload, signature: `sha256=${hex}` });
    // Standard Webhooks names the kind `type` and puts it first; `event` stays for receivers written before it.
    expect(Object.keys(JSON.parse(m.body))).toEqual(['type', 'event', 'timestamp', 'data', 'signature']);
    expect(m.headers['x-rootline-signature']).toBe(`sha256=${hex}`);
  });

  it('retry on the Standard Webhooks schedule with jitter, then stop', () => {
    expect(retryDelayMs(1, 0.5)).toBe(5000);
    expect(retryDelayMs(2, 0)).toBe(240_000);
    expect(retryDelayMs(2, 1)).toBe(360_000);
    expect(retryDelayMs(9, 0.5)).toBe(86_400_000);
    expect(retryDelayMs(10, 0.5)).toBeNull();
  });

  it('keep every retry delay within ±20 % of its schedule entry, at both ends of the jitter and scaled', () => {
    RETRY_SCHEDULE_MS.forEach((base, i) => {
      for (const scale of [1, 0.001]) {
        const low = retryDelayMs(i + 1, 0, scale)!;
        const high = retryDelayMs(i + 1, 0.999_999, scale)!;
        expect(low).toBe(Math.round(base * scale * 0.8));
        expect(high).toBeLessThanOrEqual(Math.round(base * scale * 1.2));
        expect(high).toBeGreaterThan(base * scale * 1.19);
      }
    });
  });

  it('generate a secret as Standard Webhooks libraries make one: whsec_ + base64 of 24 random bytes', () => {
    const secret = generatedWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(webhookKey(secret)).toHaveLength(GENERATED_SECRET_BYTES);
    expect(generatedWebhookSecret()).not.toBe(secret);
    expect(generatedWebhookSecret(Buffer.alloc(24, 1))).toBe(`whsec_${Buffer.alloc(24, 1).toString('base64')}`);
  });
});

describe('an EPCIS query subscription’s result', () => {
  it('is the bare EPCISQueryDocument, signed in GS1-Signature over its bytes and by the Standard Webhooks headers', () => {
    const secret = 'the-partner-shared-secret-0123456789';
    const document = { type: 'EPCISQueryDocument', schemaVersion: '2.0', epcisBody: { queryResults: {} } };
    const m = webhookMessage(secret, 'whd_1', 1_700_000_000, {
      event: EPCIS_QUERY_RESULT,
      timestamp: '2026-10-02T09:00:01.000Z',
      data: document,
    });
    expect(JSON.parse(m.body)).toEqual(document);
    expect(m.headers['content-type']).toBe('application/ld+json');
    expect(m.headers['gs1-signature']).toBe(
      `sha256=${createHmac('sha256', Buffer.from(secret)).update(m.body).digest('hex')}`,
    );
    expect(m.headers['webhook-signature']).toBe(
      `v1,${createHmac('sha256', Buffer.from(secret)).update(`whd_1.1700000000.${m.body}`).digest('base64')}`,
    );
    expect(m.headers['x-rootline-signature']).toBeUndefined();
    // Every other kind keeps the envelope.
    const other = webhookMessage(secret, 'whd_2', 1_700_000_000, {
      event: 'plant.registered',
      timestamp: '2026-10-02T09:00:01.000Z',
      data: { plantId: 'plt_1' },
    });
    expect(JSON.parse(other.body)).toMatchObject({ type: 'plant.registered', data: { plantId: 'plt_1' } });
    expect(other.headers['gs1-signature']).toBeUndefined();
  });
});
