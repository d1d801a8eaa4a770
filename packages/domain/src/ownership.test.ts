import { isAppError } from '@rootline/contracts/errors';
import { describe, expect, it } from 'vitest';
import { actingOwner, assertOwnerOrAdmin } from './ownership.js';

const call = (id: string, role: 'USER' | 'GROWER' | 'FARM_MANAGER' | 'ADMIN') => ({
  requestId: 'r',
  actor: { id, role },
});
const codeOf = (fn: () => unknown) => {
  try {
    fn();
    return 'none';
  } catch (err) {
    return isAppError(err) ? err.code : 'other';
  }
};

describe('ownership helpers', () => {
  it('make the caller the owner, with or without a named owner', () => {
    expect(actingOwner(call('usr_a', 'GROWER'))).toEqual({
      ownerId: 'usr_a',
      actor: { id: 'usr_a', role: 'GROWER' },
      onBehalf: false,
    });
    expect(actingOwner(call('usr_a', 'USER'), 'usr_a').onBehalf).toBe(false);
  });

  it('refuse another owner with FORBIDDEN for every role but ADMIN, who acts on behalf', () => {
    for (const role of ['USER', 'GROWER', 'FARM_MANAGER'] as const) {
      expect(codeOf(() => actingOwner(call('usr_a', role), 'usr_b'))).toBe('FORBIDDEN');
      expect(codeOf(() => assertOwnerOrAdmin(call('usr_a', role), 'usr_b'))).toBe('FORBIDDEN');
    }
    expect(actingOwner(call('usr_admin', 'ADMIN'), 'usr_b')).toMatchObject({ ownerId: 'usr_b', onBehalf: true });
    expect(assertOwnerOrAdmin(call('usr_admin', 'ADMIN'), 'usr_b').id).toBe('usr_admin');
  });

  it('give an organization acted for what it owns, to the role each operation needs', () => {
    const acting = (role: 'owner' | 'manager' | 'member' | 'viewer') => ({
      requestId: 'r',
      actor: { id: 'usr_a', role: 'USER' as const, org: { id: 'org_1', role, name: 'Co-op' } },
    });
    // A new record is the organization's, whoever acts; the caller's own id still names the caller.
    expect(actingOwner(acting('member'))).toMatchObject({ ownerId: 'org_1', onBehalf: false });
    expect(actingOwner(acting('member'), 'usr_a').ownerId).toBe('usr_a');
    expect(codeOf(() => actingOwner(acting('member'), undefined, 'manager'))).toBe('FORBIDDEN');
    expect(assertOwnerOrAdmin(acting('viewer'), 'org_1', 'viewer').id).toBe('usr_a');
    expect(codeOf(() => assertOwnerOrAdmin(acting('viewer'), 'org_1'))).toBe('FORBIDDEN');
    expect(assertOwnerOrAdmin(acting('manager'), 'org_1', 'manager').id).toBe('usr_a');
    // Another organization's records, or another person's, stay out of reach.
    expect(codeOf(() => assertOwnerOrAdmin(acting('owner'), 'org_2'))).toBe('FORBIDDEN');
    expect(codeOf(() => assertOwnerOrAdmin(acting('owner'), 'usr_b'))).toBe('FORBIDDEN');
  });

  it('need an acting user: UNAUTHORIZED without one', () => {
    expect(codeOf(() => actingOwner({ requestId: 'r' }, 'usr_b'))).toBe('UNAUTHORIZED');
    expect(codeOf(() => assertOwnerOrAdmin({ requestId: 'r' }, 'usr_b'))).toBe('UNAUTHORIZED');
  });
});
