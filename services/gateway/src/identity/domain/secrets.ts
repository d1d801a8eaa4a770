import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** API tokens start with this, so they are recognisable in code, logs and secret scanners. */
export const API_TOKEN_PREFIX = 'rlpat_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 40 base62 characters: about 238 bits of randomness. */
const API_TOKEN_BODY = 40;
const API_TOKEN_CHECKSUM = 6;
const API_TOKEN = new RegExp(`^${API_TOKEN_PREFIX}[0-9A-Za-z]{${API_TOKEN_BODY + API_TOKEN_CHECKSUM}}$`);

/** A random secret for a one-time link (password reset, email verification): 256 bits, base64url. */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/**
 * The stored form of a high-entropy secret (API token, one-time link token): SHA-256, hex. A fast hash is
 * enough here because the secrets are random, not chosen by people; lookups use the hash as the key.
 */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Compares two strings in time that depends on neither content (digests first, so lengths may differ). */
export function safeEqual(a: string, b: string): boolean {
  const da = createHash('sha256').update(a).digest();
  const db = createHash('sha256').update(b).digest();
  return timingSafeEqual(da, db) && a.length === b.length;
}

/** A key for one purpose derived from the server secret, so one secret never signs two kinds of things. */
export function deriveKey(secret: string, purpose: string): Buffer {
  return createHmac('sha256', secret).update(`rootline:${purpose}`).digest();
}

function base62(n: number): string {
  let out = '';
  for (let i = 0; i < n; i++) out += BASE62[randomInt(62)];
  return out;
}

function checksum(body: string): string {
  const digest = createHash('sha256').update(body).digest();
  let value = digest.readUInt32BE(0);
  let out = '';
  for (let i = 0; i < API_TOKEN_CHECKSUM; i++) {
    out = BASE62[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

/** A new API token: prefix, 40 random base62 characters, a 6-character checksum; and its display hint. */
export function generateApiToken(): { token: string; hint: string } {
  const body = base62(API_TOKEN_BODY);
  const token = `${API_TOKEN_PREFIX}${body}${checksum(body)}`;
  return { token, hint: apiTokenHint(token) };
}

/** What lists show of a token: its prefix and last four characters. */
export function apiTokenHint(token: string): string {
  return `${API_TOKEN_PREFIX}…${token.slice(-4)}`;
}

/** True when the value looks like an API token (prefix, length, alphabet); the checksum is not checked. */
export function looksLikeApiToken(value: string): boolean {
  return value.startsWith(API_TOKEN_PREFIX);
}

/** True when the value is a well-formed API token with a valid checksum (a typo fails without a lookup). */
export function isWellFormedApiToken(value: string): boolean {
  if (!API_TOKEN.test(value)) return false;
  const body = value.slice(API_TOKEN_PREFIX.length, API_TOKEN_PREFIX.length + API_TOKEN_BODY);
  return safeEqual(checksum(body), value.slice(-API_TOKEN_CHECKSUM));
}
