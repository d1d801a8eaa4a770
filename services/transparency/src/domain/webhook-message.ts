import { createHmac, randomBytes } from 'node:crypto';
import { EPCIS_SUBSCRIPTION_KIND } from '@rootline/contracts/epcis';
import canonicalize from 'canonicalize';

/** What a receiver gets: the spec's payload, its body bytes and the headers. */
export interface WebhookMessage {
  body: string;
  headers: Record<string, string>;
}

/** The prefix of a secret in the Standard Webhooks form: `whsec_` + base64 of the key bytes. */
export const STANDARD_SECRET_PREFIX = 'whsec_';

/**
 * The bytes that key a webhook's HMACs: a Standard Webhooks secret (`whsec_…`) stands for the bytes its base64
 * encodes, as the `standardwebhooks` libraries read it; any other secret for its own UTF-8 bytes.
 */
export function webhookKey(secret: string): Buffer {
  return secret.startsWith(STANDARD_SECRET_PREFIX)
    ? Buffer.from(secret.slice(STANDARD_SECRET_PREFIX.length), 'base64')
    : Buffer.from(secret, 'utf8');
}

/** How many random bytes a generated secret encodes (as Standard Webhooks libraries make them: 24). */
export const GENERATED_SECRET_BYTES = 24;

/**
 * A secret for a webhook registered without one, in the Standard Webhooks form: `whsec_` + base64 of 24 random
 * bytes (`bytes` for a test).
 */
export function generatedWebhookSecret(bytes: Buffer = randomBytes(GENERATED_SECRET_BYTES)): string {
  return `${STANDARD_SECRET_PREFIX}${bytes.toString('base64')}`;
}

/**
 * The secret as Standard Webhooks libraries take it (`new Webhook(secret)`): itself when already in that form,
 * else `whsec_` + base64 of its UTF-8 bytes, the same key.
 */
export function standardWebhooksSecret(secret: string): string {
  return secret.startsWith(STANDARD_SECRET_PREFIX)
    ? secret
    : `${STANDARD_SECRET_PREFIX}${webhookKey(secret).toString('base64')}`;
}

/**
 * The `signature` field: `sha256=` + hex HMAC-SHA256, keyed with the secret's key bytes (`webhookKey`), over the RFC
 * 8785 canonical JSON (UTF-8) of the payload without its signature, i.e. of `{ data, event, timestamp }`.
 */
export function payloadSignature(secret: string, payload: { event: string; timestamp: string; data: unknown }): string {
  const signed = canonicalize({ event: payload.event, timestamp: payload.timestamp, data: payload.data }) as string;
  return `sha256=${createHmac('sha256', webhookKey(secret)).update(signed, 'utf8').digest('hex')}`;
}

/**
 * Builds one delivery attempt. The body is `{ type, event, timestamp, data, signature }`: `type` (the kind, as the
 * Standard Webhooks payload names it) beside `event` (the same kind, kept for receivers written before `type`).
 * Standard Webhooks headers: `webhook-id` (the delivery id, the same on retries, so
 * a receiver drops repeats), `webhook-timestamp` (this attempt, in seconds, so a receiver refuses replays) and
 * `webhook-signature` = `v1,` + base64 HMAC-SHA256 over `<id>.<timestamp>.<body>`, keyed with `webhookKey(secret)`.
 */
export function webhookMessage(
  secret: string,
  deliveryId: string,
  attemptAtSeconds: number,
  payload: { event: string; timestamp: string; data: unknown },
): WebhookMessage {
  if (payload.event === EPCIS_QUERY_RESULT)
    return epcisQueryResultMessage(secret, deliveryId, attemptAtSeconds, payload);
  const signature = payloadSignature(secret, payload);
  const body = JSON.stringify({
    type: payload.event,
    event: payload.event,
    timestamp: payload.timestamp,
    data: payload.data,
    signature,
  });
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'Rootline-Webhooks/1',
      'x-rootline-signature': signature,
      'x-rootline-event': payload.event,
      ...standardHeaders(secret, deliveryId, attemptAtSeconds, body),
    },
  };
}

/** The kind of an EPCIS query subscription's results. */
export const EPCIS_QUERY_RESULT = EPCIS_SUBSCRIPTION_KIND;

/** Standard Webhooks headers of a body: its id, this attempt's time, and `v1,` + HMAC over `<id>.<time>.<body>`. */
function standardHeaders(secret: string, deliveryId: string, attemptAtSeconds: number, body: string) {
  const v1 = createHmac('sha256', webhookKey(secret))
    .update(`${deliveryId}.${attemptAtSeconds}.${body}`, 'utf8')
    .digest('base64');
  return {
    'webhook-id': deliveryId,
    'webhook-timestamp': String(attemptAtSeconds),
    'webhook-signature': `v1,${v1}`,
  };
}

/**
 * An EPCIS query subscription's result (ADR 320), as GS1's EPCIS 2.0 REST binding sends one to `dest`: the body is
 * the `EPCISQueryDocument` itself, with `GS1-Signature: sha256=` + hex HMAC-SHA256 of the body bytes keyed by the
 * subscription's `signatureToken` (its key bytes, `webhookKey`), and the Standard Webhooks headers of every delivery,
 * so `new Webhook(secret).verify(body, headers)` holds too.
 */
function epcisQueryResultMessage(
  secret: string,
  deliveryId: string,
  attemptAtSeconds: number,
  payload: { event: string; data: unknown },
): WebhookMessage {
  const body = JSON.stringify(payload.data);
  const signature = `sha256=${createHmac('sha256', webhookKey(secret)).update(body, 'utf8').digest('hex')}`;
  return {
    body,
    headers: {
      'content-type': 'application/ld+json',
      'user-agent': 'Rootline-Webhooks/1',
      'gs1-epcis-version': '2.0.0',
      'gs1-cbv-version': '2.0.0',
      'gs1-signature': signature,
      'x-rootline-event': payload.event,
      ...standardHeaders(secret, deliveryId, attemptAtSeconds, body),
    },
  };
}

/** The jitter of a retry delay: a delay is its schedule's entry times 1 ± this. */
export const RETRY_JITTER = 0.2;

/** The base of each retry delay in turn, before jitter and `WEBHOOK_RETRY_SCALE`. */
export const RETRY_SCHEDULE_MS = [
  5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000, 86_400_000, 86_400_000,
];

/**
 * Delay before attempt n+1 after n failed attempts (the Standard Webhooks schedule: 5 s, 5 min, 30 min, 2 h,
 * 5 h, 10 h, 10 h, then 24 h twice, about three days in all), with ±20 % jitter; null when attempts are spent.
 * It counts from the end of the failed attempt; the worker wakes for it on time, not at its next poll.
 */
export function retryDelayMs(failedAttempts: number, random: number, scale = 1): number | null {
  const base = RETRY_SCHEDULE_MS[failedAttempts - 1];
  if (base === undefined) return null;
  return Math.round(base * scale * (1 - RETRY_JITTER + 2 * RETRY_JITTER * random));
}
