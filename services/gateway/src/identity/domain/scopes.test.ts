import { ROLE_PERMISSIONS } from '@rootline/contracts';
import { describe, expect, it } from 'vitest';
import { effectivePermissions, requestScopes } from './scopes.js';

describe('API token scopes', () => {
  it('default to every permission the caller holds', () => {
    const result = requestScopes(undefined, ROLE_PERMISSIONS.USER);
    expect(result).toEqual({ ok: true, scopes: [...ROLE_PERMISSIONS.USER].sort() });
  });

  it("keep a subset of the caller's permissions, sorted and without repeats", () => {
    expect(requestScopes(['plants:write', 'plants:read', 'plants:write'], ROLE_PERMISSIONS.USER)).toEqual({
      ok: true,
      scopes: ['plants:read', 'plants:write'],
    });
  });

  it("refuse scopes beyond the caller's permissions and name them", () => {
    expect(requestScopes(['plants:read', 'admin:users', 'farm:write'], ROLE_PERMISSIONS.GROWER)).toEqual({
      ok: false,
      excess: ['admin:users', 'farm:write'],
    });
  });

  it("narrow a caller's permissions to a token's scopes, and never exceed the current role", () => {
    expect([...effectivePermissions('USER', ['plants:read'])]).toEqual(['plants:read']);
    // Issued while FARM_MANAGER, owner now USER: farm:write is gone.
    expect([...effectivePermissions('USER', ['farm:write', 'plants:read'])]).toEqual(['plants:read']);
    expect(effectivePermissions('ADMIN', null)).toBe(ROLE_PERMISSIONS.ADMIN);
  });
});
