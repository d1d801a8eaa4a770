import { describe, expect, it } from 'vitest';
import { unsubscribeToken, verifyUnsubscribeToken } from './unsubscribe.js';

const key = Buffer.from('k'.repeat(32));

describe('unsubscribe tokens', () => {
  it('round-trips the user and type', () => {
    const token = unsubscribeToken(key, { userId: 'usr_1', type: 'weekly-digest' });
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(verifyUnsubscribeToken(key, token)).toEqual({ userId: 'usr_1', type: 'weekly-digest' });
  });

  it('refuses a token signed with another key, or altered', () => {
    const token = unsubscribeToken(key, { userId: 'usr_1', type: 'marketplace' });
    expect(verifyUnsubscribeToken(Buffer.from('x'.repeat(32)), token)).toBeUndefined();
    const other = unsubscribeToken(key, { userId: 'usr_2', type: 'marketplace' });
    const forged = `${other.split('.')[0]}.${token.split('.')[1]}`;
    expect(verifyUnsubscribeToken(key, forged)).toBeUndefined();
    expect(verifyUnsubscribeToken(key, `${token}.x`)).toBeUndefined();
    expect(verifyUnsubscribeToken(key, 'abc')).toBeUndefined();
  });

  it('refuses a signed token for a type that cannot be switched off', () => {
    const token = unsubscribeToken(key, { userId: 'usr_1', type: 'account' as 'welcome' });
    expect(verifyUnsubscribeToken(key, token)).toBeUndefined();
  });
});
