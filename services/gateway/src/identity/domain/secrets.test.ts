import { describe, expect, it } from 'vitest';
import {
  API_TOKEN_PREFIX,
  apiTokenHint,
  deriveKey,
  generateApiToken,
  hashSecret,
  isWellFormedApiToken,
  looksLikeApiToken,
  randomSecret,
  safeEqual,
} from './secrets.js';

describe('API tokens', () => {
  it('carry the prefix, 46 base62 characters and a valid checksum', () => {
    const { token, hint } = generateApiToken();
    expect(token).toMatch(/^rlpat_[0-9A-Za-z]{46}$/);
    expect(token.startsWith(API_TOKEN_PREFIX)).toBe(true);
    expect(isWellFormedApiToken(token)).toBe(true);
    expect(hint).toBe(`rlpat_…${token.slice(-4)}`);
    expect(apiTokenHint(token)).toBe(hint);
  });

  it('are different every time', () => {
    const tokens = new Set(Array.from({ length: 200 }, () => generateApiToken().token));
    expect(tokens.size).toBe(200);
  });

  it('fail the checksum when one character changes', () => {
    const { token } = generateApiToken();
    const i = API_TOKEN_PREFIX.length + 5;
    const changed = token.slice(0, i) + (token[i] === 'a' ? 'b' : 'a') + token.slice(i + 1);
    expect(isWellFormedApiToken(changed)).toBe(false);
    expect(isWellFormedApiToken(token.slice(0, -1))).toBe(false);
    expect(isWellFormedApiToken('rlpat_short')).toBe(false);
    expect(looksLikeApiToken(changed)).toBe(true);
    expect(looksLikeApiToken('eyJhbGciOiJIUzI1NiJ9.e30.x')).toBe(false);
  });
});

describe('secrets', () => {
  it('random secrets carry 256 bits, base64url', () => {
    expect(randomSecret()).toMatch(/^[\w-]{43}$/);
    expect(randomSecret()).not.toBe(randomSecret());
  });

  it('are stored as SHA-256 hex, never as themselves', () => {
    const s = randomSecret();
    expect(hashSecret(s)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashSecret(s)).toBe(hashSecret(s));
    expect(hashSecret(s)).not.toContain(s);
  });

  it('compares equal strings as equal and anything else as different, lengths included', () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abd')).toBe(false);
    expect(safeEqual('abc', 'abcd')).toBe(false);
    expect(safeEqual('', '')).toBe(true);
  });

  it('derives one distinct key per purpose', () => {
    const csrf = deriveKey('s'.repeat(32), 'csrf');
    expect(csrf).toHaveLength(32);
    expect(csrf.equals(deriveKey('s'.repeat(32), 'csrf'))).toBe(true);
    expect(csrf.equals(deriveKey('s'.repeat(32), 'oauth-state'))).toBe(false);
    expect(csrf.equals(deriveKey('t'.repeat(32), 'csrf'))).toBe(false);
  });
});
