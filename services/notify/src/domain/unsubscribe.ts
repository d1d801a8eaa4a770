import { createHmac, timingSafeEqual } from 'node:crypto';
import type { PreferenceType } from '@rootline/contracts/notify';
import { isPreferenceType } from './preferences.js';

/** What an unsubscribe link turns off: one user's emails of one type. */
export interface Unsubscribe {
  userId: string;
  type: PreferenceType;
}

const sign = (key: Buffer, payload: string) => createHmac('sha256', key).update(payload).digest('base64url');

/**
 * The token of an unsubscribe link: the user and type, HMAC-SHA256-signed with the service's key, so the link
 * works without signing in and cannot be made for anyone else. It never expires: the link in an old email must
 * still work (RFC 8058 asks that it keep working for a while; an unsubscribe cannot do harm).
 */
export function unsubscribeToken(key: Buffer, u: Unsubscribe): string {
  const payload = Buffer.from(JSON.stringify([u.userId, u.type])).toString('base64url');
  return `${payload}.${sign(key, payload)}`;
}

/** The user and type of a valid token; undefined for a forged, altered or malformed one. */
export function verifyUnsubscribeToken(key: Buffer, token: string): Unsubscribe | undefined {
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return undefined;
  const expected = Buffer.from(sign(key, payload));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    if (!Array.isArray(parsed) || parsed.length !== 2) return undefined;
    const [userId, type] = parsed as unknown[];
    if (typeof userId !== 'string' || typeof type !== 'string' || !isPreferenceType(type)) return undefined;
    return { userId, type };
  } catch {
    return undefined;
  }
}
