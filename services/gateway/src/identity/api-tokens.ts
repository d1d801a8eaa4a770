import {
  type ApiTokenCreated,
  type ApiTokenInput,
  type ApiToken as ApiTokenView,
  AppError,
  newId,
} from '@rootline/contracts';
import {
  type ApiTokenRow,
  findLiveApiToken,
  insertApiToken,
  listLiveApiTokens,
  revokeApiToken,
  touchApiToken,
} from './db/api-tokens.repo.js';
import type { UserRow } from './db/users.repo.js';
import type { IdentityDeps } from './deps.js';
import { requestScopes } from './domain/scopes.js';
import { generateApiToken, hashSecret, isWellFormedApiToken } from './domain/secrets.js';
import type { Principal } from './principal.js';
import { apiTokenView } from './views.js';

/** API tokens: issue (secret shown once), list, revoke, authenticate. */
export function createApiTokens(deps: IdentityDeps) {
  const { db } = deps;

  return {
    /**
     * Issues a token for the caller. Only a signed-in session may issue one (a token cannot mint tokens), its
     * scopes cannot exceed the caller's permissions, and an expiry must lie in the future.
     */
    async issue(caller: Principal, input: ApiTokenInput): Promise<ApiTokenCreated> {
      if (caller.credential !== 'session') {
        throw new AppError('FORBIDDEN', 'API tokens are issued from a signed-in session, not with another token');
      }
      const scopes = requestScopes(input.scopes, caller.permissions);
      if (!scopes.ok) {
        throw new AppError('FORBIDDEN', `Scopes exceed your permissions: ${scopes.excess.join(', ')}`, {
          field: 'body/scopes',
          reason: 'scopes-exceed',
          excess: scopes.excess,
        });
      }
      const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
      if (expiresAt && expiresAt.getTime() <= deps.clock.now().getTime()) {
        throw new AppError('VALIDATION_ERROR', 'body/expiresAt must be in the future', [
          { field: 'body/expiresAt', message: 'must be in the future' },
        ]);
      }
      // Issued while acting for an organization: the token always acts for it, so only its owners and managers may.
      const org = caller.actor.org;
      if (org && org.role !== 'owner' && org.role !== 'manager') {
        throw new AppError('FORBIDDEN', `A token for organization ${org.id} is issued by its owners and managers`, {
          reason: 'org-role',
          required: 'manager',
          role: org.role,
        });
      }
      const { token, hint } = generateApiToken();
      const row = await insertApiToken(db, {
        id: newId('tok', deps.clock.now().getTime()),
        userId: caller.user.id,
        name: input.name.trim(),
        tokenHash: hashSecret(token),
        hint,
        scopes: scopes.scopes,
        organizationId: org?.id ?? null,
        expiresAt,
      });
      return { ...apiTokenView(row), token };
    },

    async list(userId: string): Promise<ApiTokenView[]> {
      return (await listLiveApiTokens(db, userId)).map(apiTokenView);
    },

    /** Revokes one of the caller's tokens at once; 404 for a token that is not theirs or already revoked. */
    async revoke(userId: string, id: string): Promise<ApiTokenView> {
      const row = await revokeApiToken(db, userId, id);
      if (!row) throw new AppError('NOT_FOUND', `API token ${id} not found`);
      return apiTokenView(row);
    },

    /** The live token and its owner for a presented secret; null for a malformed, unknown, revoked or expired one. */
    async authenticate(token: string): Promise<{ token: ApiTokenRow; user: UserRow } | null> {
      if (!isWellFormedApiToken(token)) return null;
      const found = await findLiveApiToken(db, hashSecret(token));
      if (found) {
        touchApiToken(db, found.token.id).catch(() => {
          // Bookkeeping only; the request goes on.
        });
      }
      return found;
    },
  };
}

export type ApiTokens = ReturnType<typeof createApiTokens>;
