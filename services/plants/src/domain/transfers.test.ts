import type { Actor } from '@rootline/contracts/roles';
import { describe, expect, it } from 'vitest';
import { assertSide, listingParty, mayReadTransfer, signerOf } from './transfers.js';

const person: Actor = { id: 'usr_alice00000001', role: 'USER' };
const asOrg = (role: 'owner' | 'manager' | 'member' | 'viewer'): Actor => ({
  ...person,
  org: { id: 'org_coop000000001', role, name: 'Riverside' },
});

describe('transfer sides', () => {
  it('lets the person, or an owner or manager acting for the organization, act for a side', () => {
    expect(assertSide(person, person.id, 'not-owner')).toEqual({
      accountId: person.id,
      organizationId: null,
      role: null,
    });
    expect(assertSide(asOrg('manager'), 'org_coop000000001', 'not-owner')).toEqual({
      accountId: person.id,
      organizationId: 'org_coop000000001',
      role: 'manager',
    });
    // Acting for an organization, one's own plant is still one's own, signed as a person.
    expect(signerOf(asOrg('owner'), person.id).organizationId).toBeNull();
  });

  it('refuses a member or viewer of the side, and anyone else (an ADMIN too)', () => {
    expect(() => assertSide(asOrg('member'), 'org_coop000000001', 'not-recipient')).toThrow(/manager/);
    try {
      assertSide(asOrg('viewer'), 'org_coop000000001', 'not-recipient');
    } catch (e) {
      expect((e as { details: unknown }).details).toEqual({ reason: 'org-role', required: 'manager', role: 'viewer' });
    }
    expect(() => assertSide({ id: 'usr_admin0000001', role: 'ADMIN' }, person.id, 'not-owner')).toThrow(/owner/);
  });

  it('lets both sides read, a member of a side too, and lists for the organization acted for', () => {
    const t = { from: { id: person.id }, to: { id: 'org_coop000000001' } };
    expect(mayReadTransfer({ id: 'usr_bob000000001', role: 'USER', org: asOrg('viewer').org }, t)).toBe(true);
    expect(mayReadTransfer({ id: 'usr_bob000000001', role: 'USER' }, t)).toBe(false);
    expect(listingParty(asOrg('viewer'))).toBe('org_coop000000001');
    expect(listingParty(person)).toBe(person.id);
  });
});
