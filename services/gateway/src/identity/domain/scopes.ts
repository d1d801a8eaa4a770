import { type Permission, ROLE_PERMISSIONS, type Role } from '@rootline/contracts';

/** The outcome of asking for an API token with the given scopes. */
export type ScopeRequest = { ok: true; scopes: Permission[] } | { ok: false; excess: Permission[] };

/**
 * The scopes of a new API token: the requested ones if the caller holds every one of them, else the list of
 * those it lacks. Without a request, the token gets every permission the caller holds. `held` is what the
 * caller may do right now (its role's permissions).
 */
export function requestScopes(
  requested: readonly Permission[] | undefined,
  held: ReadonlySet<Permission>,
): ScopeRequest {
  if (requested === undefined) return { ok: true, scopes: [...held].sort() };
  const excess = requested.filter((p) => !held.has(p));
  if (excess.length > 0) return { ok: false, excess };
  return { ok: true, scopes: [...new Set(requested)].sort() };
}

/**
 * What a caller may do: its role's permissions, narrowed to the credential's scopes when it has any (an API
 * token). A token never grants more than its owner's current role, even if the role was lowered after issue.
 */
export function effectivePermissions(role: Role, scopes: readonly Permission[] | null): ReadonlySet<Permission> {
  const byRole = ROLE_PERMISSIONS[role];
  if (scopes === null) return byRole;
  return new Set(scopes.filter((p) => byRole.has(p)));
}
