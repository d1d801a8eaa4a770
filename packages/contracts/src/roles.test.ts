import { describe, expect, it } from 'vitest';
import { isOwnerOrAdmin, PERMISSIONS, ROLE_PERMISSIONS, ROLES, roleHas } from './roles.js';

describe('roles and permissions', () => {
  it('grant each role everything the role before it has, and ADMIN everything', () => {
    for (let i = 1; i < ROLES.length; i++) {
      const lower = ROLE_PERMISSIONS[ROLES[i - 1]!];
      const higher = ROLE_PERMISSIONS[ROLES[i]!];
      for (const p of lower) expect(higher.has(p), `${ROLES[i]} ${p}`).toBe(true);
    }
    expect([...ROLE_PERMISSIONS.ADMIN].sort()).toEqual([...PERMISSIONS].sort());
  });

  it('keep farm writes for FARM_MANAGER and up, administration for ADMIN, the own account for all', () => {
    expect(ROLES.filter((r) => roleHas(r, 'farm:write'))).toEqual(['FARM_MANAGER', 'ADMIN']);
    expect(ROLES.filter((r) => roleHas(r, 'admin:users'))).toEqual(['ADMIN']);
    expect(ROLES.every((r) => roleHas(r, 'account:read') && roleHas(r, 'account:write'))).toBe(true);
  });

  it('let only the owner or an ADMIN change an owned record', () => {
    expect(isOwnerOrAdmin({ id: 'usr_1', role: 'USER' }, 'usr_1')).toBe(true);
    expect(isOwnerOrAdmin({ id: 'usr_2', role: 'FARM_MANAGER' }, 'usr_1')).toBe(false);
    expect(isOwnerOrAdmin({ id: 'usr_3', role: 'ADMIN' }, 'usr_1')).toBe(true);
    expect(isOwnerOrAdmin(undefined, 'usr_1')).toBe(false);
  });
});
