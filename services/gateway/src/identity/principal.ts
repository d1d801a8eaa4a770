import type { Actor, Permission } from '@rootline/contracts';
import type { UserRow } from './db/users.repo.js';

/** The verified caller of a request: who, by which credential, and what it may do. */
export interface Principal {
  user: UserRow;
  /** What travels to the services: id and current role. */
  actor: Actor;
  credential: 'session' | 'api-token';
  /** Where the credential came from; only cookie-borne sessions need a CSRF token. */
  via: 'bearer' | 'cookie' | 'ticket';
  sessionId: string | null;
  apiTokenId: string | null;
  /** The organization an API token always acts for (ADR 237); null otherwise. */
  boundOrganizationId: string | null;
  /** An API token's scopes; null for a session (the role decides alone). */
  scopes: readonly Permission[] | null;
  /** The role's permissions, narrowed to an API token's scopes. */
  permissions: ReadonlySet<Permission>;
  expiresAt: Date | null;
}
