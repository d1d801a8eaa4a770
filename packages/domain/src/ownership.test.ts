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

  it('need an acting user: UNAUTHORIZED without one', () => {
    expect(codeOf(() => actingOwner({ requestId: 'r' }, 'usr_b'))).toBe('UNAUTHORIZED');
    expect(codeOf(() => assertOwnerOrAdmin({ requestId: 'r' }, 'usr_b'))).toBe('UNAUTHORIZED');
  });
});
