import canonicalize from 'canonicalize';
import { fromBase64, fromHex, hmacKey, hmacMatches, utf8 } from './bytes.js';

/** The prefix of a secret in the Standard Webhooks form: `whsec_` + base64 of the key bytes. */
const STANDARD_PREFIX = 'whsec_';
/** How far `webhook-timestamp` may be from now (Standard Webhooks' default tolerance). */
const TOLERANCE_SECONDS = 5 * 60;

/** A Rootline webhook payload. */
export interface WebhookPayload<T = unknown> {
  /** The event kind, as Standard Webhooks names it (absent from deliveries made before it was added). */
  type?: string;
  /** The same kind, under the name Rootline gave it first. */
  event: string;
  timestamp: string;
  data: T;
  signature: string;
}

export interface WebhookInput {
  /** The request body exactly as received (text or bytes): parse it only after verifying. */
  body: string | Uint8Array;
  /** The request headers (a Headers object or a Node-style record, names in any case). */
  headers: Headers | Record<string, string | string[] | undefined>;
  /** The webhook's secret: `whsec_…` stands for the bytes it encodes, any other secret for its UTF-8 bytes. */
  secret: string;
  /** Seconds since the epoch to check the timestamp against (default: now). */
  now?: number;
}

export type WebhookVerification<T = unknown> =
  | { valid: true; problems: []; payload: WebhookPayload<T> }
  | { valid: false; problems: string[]; payload?: undefined };

/** The bytes that key a webhook's HMACs. */
export function webhookKey(secret: string): Uint8Array<ArrayBuffer> {
  if (!secret.startsWith(STANDARD_PREFIX)) return utf8(secret);
  const key = fromBase64(secret.slice(STANDARD_PREFIX.length));
  if (!key) throw new Error('A whsec_ secret must be base64 after its prefix');
  return key;
}

function header(headers: WebhookInput['headers'], name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value.join(' ') : value;
  }
  return undefined;
}

/**
 * Verifies a webhook delivery: the Standard Webhooks headers (`webhook-signature` = `v1,` + base64 HMAC-SHA256 over
 * `<webhook-id>.<webhook-timestamp>.<body>`, the timestamp within 5 minutes of now) and the payload's own `signature`
 * (`sha256=` + hex HMAC-SHA256 over the RFC 8785 canonical JSON of `{ data, event, timestamp }`). Refuse a delivery
 * that is not `valid`; drop one whose `webhook-id` was already handled (retries keep the id).
 */
export async function verifyWebhook<T = unknown>(input: WebhookInput): Promise<WebhookVerification<T>> {
  const problems: string[] = [];
  const key = await hmacKey(webhookKey(input.secret));
  const body = typeof input.body === 'string' ? input.body : new TextDecoder().decode(input.body);
  const id = header(input.headers, 'webhook-id');
  const timestamp = header(input.headers, 'webhook-timestamp');
  const signatures = header(input.headers, 'webhook-signature');

  if (!id || !timestamp || !signatures) {
    problems.push('missing webhook-id, webhook-timestamp or webhook-signature header');
  } else {
    const seconds = Number(timestamp);
    const now = input.now ?? Math.floor(Date.now() / 1000);
    if (!/^\d+$/.test(timestamp) || Math.abs(now - seconds) > TOLERANCE_SECONDS) {
      problems.push('webhook-timestamp is not within 5 minutes of now');
    }
    const signed = utf8(`${id}.${timestamp}.${body}`);
    let matched = false;
    for (const candidate of signatures.split(' ')) {
      const [version, value] = candidate.split(',', 2);
      const mac = version === 'v1' && value ? fromBase64(value) : null;
      if (mac && (await hmacMatches(key, mac, signed))) matched = true;
    }
    if (!matched) problems.push('webhook-signature does not match the body');
  }

  let payload: WebhookPayload<T> | undefined;
  try {
    payload = JSON.parse(body) as WebhookPayload<T>;
  } catch {
    problems.push('the body is not JSON');
  }
  if (payload) {
    const mac = payload.signature?.startsWith('sha256=') ? fromHex(payload.signature.slice(7)) : null;
    const canonical = canonicalize({ data: payload.data, event: payload.event, timestamp: payload.timestamp });
    if (!mac || canonical === undefined || !(await hmacMatches(key, mac, utf8(canonical)))) {
      problems.push('the payload signature does not match');
    }
  }
  return problems.length === 0 && payload ? { valid: true, problems: [], payload } : { valid: false, problems };
}
