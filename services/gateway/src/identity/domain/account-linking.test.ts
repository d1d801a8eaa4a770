import { describe, expect, it } from 'vitest';
import { decideLink } from './account-linking.js';

describe('third-party sign-in: which account', () => {
  it('signs in the account already linked to the identity, whatever the email', () => {
    expect(decideLink({ linkedUserId: 'usr_1', providerEmailVerified: false, existing: null })).toEqual({
      action: 'sign-in',
      userId: 'usr_1',
    });
  });

  it('creates an account for a verified address nobody uses', () => {
    expect(decideLink({ linkedUserId: null, providerEmailVerified: true, existing: null })).toEqual({
      action: 'create',
    });
  });

  it('links to an account that confirmed the same address', () => {
    expect(
      decideLink({ linkedUserId: null, providerEmailVerified: true, existing: { id: 'usr_2', emailVerified: true } }),
    ).toEqual({ action: 'link', userId: 'usr_2' });
  });

  it('refuses to link to an account that never confirmed its address (pre-registration takeover)', () => {
    expect(
      decideLink({ linkedUserId: null, providerEmailVerified: true, existing: { id: 'usr_3', emailVerified: false } }),
    ).toEqual({ action: 'refuse', reason: 'ACCOUNT_NOT_LINKED' });
  });

  it('refuses an address the provider does not vouch for', () => {
    expect(
      decideLink({ linkedUserId: null, providerEmailVerified: false, existing: { id: 'usr_4', emailVerified: true } }),
    ).toEqual({ action: 'refuse', reason: 'EMAIL_NOT_VERIFIED' });
    expect(decideLink({ linkedUserId: null, providerEmailVerified: false, existing: null })).toEqual({
      action: 'refuse',
      reason: 'EMAIL_NOT_VERIFIED',
    });
  });
});
