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

/** True when the role grants the permission. */
export function roleHas(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].has(permission);
}

/** The acting user as it travels in message headers. */
export const Actor = Type.Object({
  id: Type.String({ minLength: 1 }),
  role: RoleSchema,
});
export type Actor = Static<typeof Actor>;

/**
 * The ownership rule of writes to owned records (a plant, a listing, a farm): a permission lets a role write
 * that kind of record, and only the record's owner or an ADMIN may change a given one.
 */
export function isOwnerOrAdmin(actor: Actor | undefined, ownerId: string): boolean {
  return actor !== undefined && (actor.role === 'ADMIN' || actor.id === ownerId);
}
