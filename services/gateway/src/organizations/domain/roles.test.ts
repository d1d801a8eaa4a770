import { describe, expect, it } from 'vitest';
import { changedFields, invitationStatus, leavesNoOwner, mayChangeMember, mayInvite, meetsRole } from './roles.js';

describe('organization roles', () => {
  it('owners change anyone; managers only below owner and never make owners; others nothing', () => {
    expect(mayChangeMember('owner', 'owner', 'member')).toBe(true);
    expect(mayChangeMember('owner', 'member', 'owner')).toBe(true);
    expect(mayChangeMember('manager', 'member', 'viewer')).toBe(true);
    expect(mayChangeMember('manager', 'manager', null)).toBe(true);
    expect(mayChangeMember('manager', 'owner', 'member')).toBe(false);
    expect(mayChangeMember('manager', 'member', 'owner')).toBe(false);
    expect(mayChangeMember('member', 'viewer', null)).toBe(false);
    expect(mayChangeMember('viewer', 'viewer', 'member')).toBe(false);
    expect(mayInvite('manager', 'member')).toBe(true);
    expect(mayInvite('manager', 'owner')).toBe(false);
    expect(mayInvite('owner', 'owner')).toBe(true);
  });

  it('the last owner cannot be demoted, removed or leave; one of two can', () => {
    expect(leavesNoOwner(1, 'owner', 'manager')).toBe(true);
    expect(leavesNoOwner(1, 'owner', null)).toBe(true);
    expect(leavesNoOwner(2, 'owner', null)).toBe(false);
    expect(leavesNoOwner(1, 'owner', 'owner')).toBe(false);
    expect(leavesNoOwner(1, 'manager', null)).toBe(false);
  });

  it('roles meet a floor from the strongest down', () => {
    expect(meetsRole('owner', 'viewer')).toBe(true);
    expect(meetsRole('manager', 'manager')).toBe(true);
    expect(meetsRole('member', 'manager')).toBe(false);
    expect(meetsRole(null, 'viewer')).toBe(false);
  });

  it('an invitation is pending until it expires or is answered', () => {
    const now = new Date('2026-11-29T00:00:00Z');
    expect(invitationStatus({ outcome: null, expiresAt: new Date('2026-11-30T00:00:00Z') }, now)).toBe('pending');
    expect(invitationStatus({ outcome: null, expiresAt: now }, now)).toBe('expired');
    expect(invitationStatus({ outcome: 'revoked', expiresAt: new Date('2026-11-30T00:00:00Z') }, now)).toBe('revoked');
  });

  it('names the fields an update changes', () => {
    expect(changedFields({ name: 'x', website: null, kind: undefined })).toEqual(['name', 'website']);
  });
});
