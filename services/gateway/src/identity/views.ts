import type { ApiToken, User } from '@rootline/contracts';
import type { ApiTokenRow } from './db/api-tokens.repo.js';
import type { UserRow } from './db/users.repo.js';

/** An account as clients see it: never the password hash. */
export function userView(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    emailVerified: row.emailVerifiedAt !== null,
    locale: row.locale ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** An API token as lists show it: never the secret or its hash. */
export function apiTokenView(row: ApiTokenRow): ApiToken {
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes,
    organizationId: row.organizationId ?? null,
    hint: row.hint,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}
