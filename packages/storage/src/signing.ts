import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a local signed URL allows: one method on one key until `expires` (Unix seconds). */
export interface LocalGrant {
  method: 'GET' | 'PUT';
  key: string;
  expires: number;
  contentType: string;
  /** PUT only: the exact size the upload must have. */
  bytes?: number;
}

function payload(g: LocalGrant): string {
  return [g.method, g.key, g.expires, g.contentType, g.bytes ?? ''].join('\n');
}

/** HMAC-SHA256 of the grant, base64url. */
export function signGrant(secret: string, g: LocalGrant): string {
  return createHmac('sha256', secret).update(payload(g)).digest('base64url');
}

/** True when `sig` signs the grant and it has not expired at `nowSeconds`. Constant-time comparison. */
export function verifyGrant(secret: string, g: LocalGrant, sig: string, nowSeconds: number): boolean {
  if (!Number.isSafeInteger(g.expires) || g.expires < nowSeconds) return false;
  const want = Buffer.from(signGrant(secret, g));
  const got = Buffer.from(sig);
  return want.length === got.length && timingSafeEqual(want, got);
}

/** The query string of a local signed URL. */
export function grantQuery(secret: string, g: LocalGrant): string {
  const q = new URLSearchParams({ expires: String(g.expires), type: g.contentType });
  if (g.bytes !== undefined) q.set('bytes', String(g.bytes));
  q.set('sig', signGrant(secret, g));
  return q.toString();
}
