import { Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { userRegistered } from './auth.js';
import { Timestamp } from './common.js';

describe('string formats on the bus', () => {
  it('accepts an ISO 8601 UTC timestamp and refuses other text', () => {
    expect(Value.Check(Timestamp, '2026-11-23T05:04:50.281Z')).toBe(true);
    expect(Value.Check(Timestamp, '2026-11-23T05:04:50+01:00')).toBe(true);
    expect(Value.Check(Timestamp, '2026-11-23')).toBe(false);
    expect(Value.Check(Timestamp, '2026-13-45T99:00:00Z')).toBe(false);
  });

  it('checks email addresses', () => {
    const Email = Type.String({ format: 'email' });
    expect(Value.Check(Email, 'ada@example.org')).toBe(true);
    expect(Value.Check(Email, 'not an address')).toBe(false);
  });

  // Regression: without the date-time format registered, every consumer dropped account events as malformed.
  it('lets an account event through its consumer’s schema check', () => {
    const payload = {
      userId: 'usr_1',
      email: 'ada@example.org',
      name: 'Ada',
      method: 'password',
      registeredAt: '2026-11-23T05:04:50.281Z',
    };
    expect(Value.Check(userRegistered.payload, payload)).toBe(true);
  });
});
