import { describe, expect, it } from 'vitest';
import { MAX_PASSWORD_BYTES, MIN_PASSWORD_CHARS, passwordPolicyViolation } from './password-policy.js';

describe('password policy', () => {
  it('accepts a long passphrase', () => {
    expect(passwordPolicyViolation('correct horse battery staple', 'ada@example.org')).toBeNull();
  });

  it(`refuses fewer than ${MIN_PASSWORD_CHARS} characters, counting characters rather than bytes`, () => {
    expect(passwordPolicyViolation('short-pw1')).toBe('must be at least 10 characters long');
    // Ten characters of two bytes each pass the length rule.
    expect(passwordPolicyViolation('ääääääääåb')).toBeNull();
  });

  it(`refuses more than ${MAX_PASSWORD_BYTES} bytes, which bcrypt would silently cut`, () => {
    expect(passwordPolicyViolation('a1'.repeat(36))).toBeNull();
    expect(passwordPolicyViolation(`${'a1'.repeat(36)}x`)).toBe('must be at most 72 bytes long (UTF-8)');
    // 36 characters, but 72+ bytes.
    expect(passwordPolicyViolation('é'.repeat(37))).toBe('must be at most 72 bytes long (UTF-8)');
  });

  it('refuses one repeated character and common passwords, whatever their case', () => {
    expect(passwordPolicyViolation('aaaaaaaaaaaa')).toBe('must not be one repeated character');
    expect(passwordPolicyViolation('Password123')).toBe('is too common');
    expect(passwordPolicyViolation('1234567890')).toBe('is too common');
  });

  it('refuses the email address or its name part', () => {
    expect(passwordPolicyViolation('Ada.Lovelace@Example.org', 'ada.lovelace@example.org')).toBe(
      'must not be the email address',
    );
    expect(passwordPolicyViolation('ada.lovelace', 'ada.lovelace@example.org')).toBe('must not be the email address');
  });
});
