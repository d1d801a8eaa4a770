import { type Static, Type } from '@sinclair/typebox';

export const ROLES = ['USER', 'GROWER', 'FARM_MANAGER', 'ADMIN'] as const;
export type Role = (typeof ROLES)[number];
export const RoleSchema = Type.Union(
  ROLES.map((r) => Type.Literal(r)),
  { description: 'Role of an account', examples: ['GROWER'] },
);

/** Every permission a route can require. */
export const PERMISSIONS = [
  'plants:read',
  'plants:write',
  'transport:read',
  'transport:write',
  'demand:read',
  'demand:write',
  'farm:read',
  'farm:write',
  'environment:read',
  'environment:write',
  'marketplace:read',
  'marketplace:write',
  'uploads:write',
  'notifications:read',
  'notifications:write',
  'transparency:read',
  'transparency:write',
  'audit:read',
  'webhooks:manage',
  'signatures:write',
  'analytics:read',
  'agents:read',
  'agents:control',
  'account:read',
  'account:write',
  'admin:users',
] as const;
export type Permission = (typeof PERMISSIONS)[number];
export const PermissionSchema = Type.Union(
  PERMISSIONS.map((p) => Type.Literal(p)),
  { description: 'A permission, `<area>:<action>`', examples: ['plants:read'] },
);

const USER: readonly Permission[] = [
  'plants:read',
  'plants:write',
  'transport:read',
  'transport:write',
  'demand:read',
  'demand:write',
  'farm:read',
  'environment:read',
  'environment:write',
  'marketplace:read',
  'marketplace:write',
  'uploads:write',
  'notifications:read',
  'notifications:write',
  'transparency:read',
  'webhooks:manage',
  'signatures:write',
  'analytics:read',
  // Their own account: session, sign-out, API tokens, verification email.
  'account:read',
  'account:write',
];
const GROWER: readonly Permission[] = [...USER, 'agents:read'];
const FARM_MANAGER: readonly Permission[] = [...GROWER, 'farm:write'];

/**
 * Which role may do what: the one readable table. Each role includes the one above it; ADMIN has every
 * permission. Ownership narrows writes further (see `isOwnerOrAdmin`).
 */
export const ROLE_PERMISSIONS: Readonly<Record<Role, ReadonlySet<Permission>>> = {
  USER: new Set(USER),
  GROWER: new Set(GROWER),
  FARM_MANAGER: new Set(FARM_MANAGER),
  ADMIN: new Set(PERMISSIONS),
};

/**
 * What acting for an organization adds to the caller's permissions, by organization role: its members run the
 * batches and readings of its farms and its owners and managers the farms themselves (the service checks which), so
 * nobody needs the account role FARM_MANAGER for an organization's farm. Everything else comes from the account role.
 */
export const ORG_ROLE_PERMISSIONS: Readonly<Record<OrgRole, readonly Permission[]>> = {
  owner: ['farm:write'],
  manager: ['farm:write'],
  member: ['farm:write'],
  viewer: [],
};

/** True when the role grants the permission. */
export function roleHas(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].has(permission);
}

/**
 * Roles in an organization, strongest first: an owner may do everything (dissolve it, make owners); a manager edits
 * the profile, manages members below owner and invitations, runs its farms and deletes or transfers its records; a
 * member acts for it on its records; a viewer reads them.
 */
export const ORG_ROLES = ['owner', 'manager', 'member', 'viewer'] as const;
export type OrgRole = (typeof ORG_ROLES)[number];

/** Whether `role` is at least `floor` (owner > manager > member > viewer). */
export function orgRoleAtLeast(role: OrgRole, floor: OrgRole): boolean {
  return ORG_ROLES.indexOf(role) <= ORG_ROLES.indexOf(floor);
}

/**
 * The organization a request acts for (header `Rootline-Act-As`), with the caller's role in it as read on that
 * request and its name (recorded as the owner's name of what it creates).
 */
export const ActingOrganization = Type.Object({
  id: Type.String({ minLength: 1 }),
  role: Type.Union(ORG_ROLES.map((r) => Type.Literal(r))),
  name: Type.String({ minLength: 1 }),
});
export type ActingOrganization = Static<typeof ActingOrganization>;

/** The acting user as it travels in message headers; `org` when the request acts for an organization. */
export const Actor = Type.Object({
  id: Type.String({ minLength: 1 }),
  role: RoleSchema,
  org: Type.Optional(ActingOrganization),
});
export type Actor = Static<typeof Actor>;

/**
 * The ownership rule of owned records (a plant, a listing, a farm): a permission lets a role touch that kind of
 * record, and only the record's owner, an ADMIN, or a caller acting for the owning organization with at least the
 * organization role `floor` (reading: viewer; writing: member, the default; deleting, transferring and running a
 * farm: manager) may touch a given one.
 */
export function isOwnerOrAdmin(actor: Actor | undefined, ownerId: string, floor: OrgRole = 'member'): boolean {
  if (actor === undefined) return false;
  if (actor.role === 'ADMIN' || actor.id === ownerId) return true;
  return actor.org !== undefined && actor.org.id === ownerId && orgRoleAtLeast(actor.org.role, floor);
}
